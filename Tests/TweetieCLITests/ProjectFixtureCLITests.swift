import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// The project's own API cache (Tests/Fixtures/APICache) through the CLI.
enum ProjectFixtureCLI {
    static let cache = Repository.fixtures.appendingPathComponent("APICache").path

    /// Every file below `root`, relative to it, sorted.
    static func files(in root: String) throws -> [String] {
        (try FileManager.default.subpathsOfDirectory(atPath: root)).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}

@Suite("tweetie-db sync with the project's API cache")
struct ProjectFixtureCLITests {
    @Test func syncFromTheProjectsAPICacheStoresEverythingOnce() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let result = try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--db", db.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONDecoder().decode(SyncSummary.self, from: result.stdout)
        #expect(summary.total.dropped == 0 && summary.total.inserted > 20 + 8)
        let stats = try RecordJSON.decoder().decode(StoreStatistics.self, from: try CLI.run(["stats", "--db", db.path, "--format", "json"]).stdout)
        #expect(stats.collections.first { $0.name == "users" }?.records == 8)
        // Syncing again inserts nothing. (It rewrites the statuses the user timelines, recorded
        // after the list page, deliver in a later state; a third run does exactly the same.)
        let again = try JSONDecoder().decode(SyncSummary.self, from: try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--db", db.path, "--format", "json"]).stdout)
        #expect(again.total.inserted == 0)
        let third = try JSONDecoder().decode(SyncSummary.self, from: try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--db", db.path, "--format", "json"]).stdout)
        #expect(third == again)
        #expect(try CLI.run(["verify", "--db", db.path]).status == 0)
    }

    /// The command in Tests/Fixtures/README.md gives exactly the committed fixtures.
    @Test func theDocumentedCommandRecordsExactlyTheFixtures() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let out = TemporaryDirectory("cli")
        defer { out.remove() }
        let cache = out.url.appendingPathComponent("APICache").path
        let result = try CLI.run(["sync", "--simulated", "--seed", "2018", "--ticks", "6", "--record-api-cache", cache, "--db", db.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try ProjectFixtureCLI.files(in: cache)
        #expect(files == (try ProjectFixtureCLI.files(in: ProjectFixtureCLI.cache)))
        for file in files {
            #expect(FileManager.default.contentsEqual(atPath: cache + "/" + file, andPath: ProjectFixtureCLI.cache + "/" + file), "\(file)")
        }
    }

    /// Replaying the cache while recording writes back what it read: the newest page, the
    /// members and the user timelines, byte for byte.
    @Test func recordingAReplayWritesTheSameFiles() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let out = TemporaryDirectory("cli")
        defer { out.remove() }
        let result = try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--record-api-cache", out.url.path, "--db", db.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try ProjectFixtureCLI.files(in: out.url.path)
        #expect(files.count == 1 + 1 + 8)
        for file in files {
            #expect(FileManager.default.contentsEqual(atPath: out.url.path + "/" + file, andPath: ProjectFixtureCLI.cache + "/" + file), "\(file)")
        }
        let same = try CLI.run(["sync", "--api-cache", ProjectFixtureCLI.cache, "--record-api-cache", ProjectFixtureCLI.cache + "/", "--db", db.path])
        #expect(same.status != 0 && same.stderr.contains("--record-api-cache must name another directory"))
    }

    @Test func anUnwritableRecordingDirectoryIsAClearError() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let out = TemporaryDirectory("cli")
        defer { out.remove() }
        // A regular file where the cache's "lists" folder must go.
        try Data("x".utf8).write(to: out.url.appendingPathComponent("lists"))
        let result = try CLI.run(["sync", "--simulated", "--ticks", "0", "--record-api-cache", out.url.path, "--db", db.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot be recorded") && result.stderr.contains(out.url.path + "/lists/members.json-"), "\(result.stderr)")
    }

    @Test func anAPICacheFIFOIsAClearErrorNotAHang() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let cache = TemporaryDirectory("cli")
        defer { cache.remove() }
        try FileManager.default.createDirectory(at: cache.url.appendingPathComponent("lists"), withIntermediateDirectories: true)
        #expect(mkfifo(cache.url.appendingPathComponent("lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift").path, 0o600) == 0)
        let result = try CLI.run(["sync", "--api-cache", cache.url.path, "--db", db.path], timeout: 60)
        #expect(result.status != 0)
        #expect(result.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
    }
}
