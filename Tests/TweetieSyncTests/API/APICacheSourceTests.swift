import Foundation
import Logging
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("APICacheSource")
struct APICacheSourceTests {
    let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")

    @Test(.enabled(if: Fixtures.isAvailable, Fixtures.disabledReason))
    func readsTheFixtures() async throws {
        let (logger, log) = CapturingLogHandler.make()
        let source = APICacheSource(directory: try #require(Fixtures.directory), logger: logger)
        let timeline = try await source.timeline(of: list, cursor: TimelineCursor())
        #expect(timeline.tweets.count == 19)
        #expect(timeline.deletedIds.isEmpty && timeline.dropped.isEmpty)
        #expect(timeline.tweets.first?.id == 1071325319259414528)
        let members = try await source.members(of: list)
        #expect(members.users.count == 8)
        var userTotal = 0
        for username in Fixtures.authors {
            let page = try await source.timeline(of: username, cursor: TimelineCursor())
            #expect(page.tweets.count >= 99, "\(username)")
            userTotal += page.tweets.count
        }
        #expect(userTotal == 299)
        // The captured "next page" request (both bounds set, since_id > max_id) is empty.
        let next = try await source.timeline(
            of: list, cursor: TimelineCursor(maxId: 1070684513213267967, sinceId: 1071396963340435457))
        #expect(next.tweets.isEmpty)
        #expect(log.messages.isEmpty, "every request above has a file: \(log.messages.map(\.message))")
    }

    @Test(.enabled(if: Fixtures.isAvailable, Fixtures.disabledReason))
    func missingFixtureGivesEmptyAndLogs() async throws {
        let (logger, log) = CapturingLogHandler.make()
        let source = APICacheSource(directory: try #require(Fixtures.directory), logger: logger)
        let page = try await source.timeline(of: list, cursor: TimelineCursor(sinceId: 1071325319259414528))
        #expect(page.tweets.isEmpty)
        let members = try await source.members(of: ListIdentifier(username: "icanzilb", slug: "Other"))
        #expect(members.users.isEmpty)
        let files = log.messages.compactMap { $0.metadata["file"].map { "\($0)" } }
        #expect(files.count == 2)
        #expect(files[0].hasSuffix("lists/statuses.json-owner_screen_name-icanzilb-since_id-1071325319259414528-slug-RxSwift"))
        #expect(files[1].contains("slug-Other"))
    }

    @Test func fileNamesFollowTheBookLayout() throws {
        let source = APICacheSource(directory: URL(fileURLWithPath: "/cache"))
        #expect(source.fileURL(forTimelineOf: list, cursor: TimelineCursor()).path
            == "/cache/lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift")
        #expect(source.fileURL(forTimelineOf: list, cursor: TimelineCursor(maxId: 5, sinceId: 3)).path
            == "/cache/lists/statuses.json-max_id-5-owner_screen_name-icanzilb-since_id-3-slug-RxSwift")
        #expect(TwitterRequest.listMembers(list).cacheName
            == "lists/members.json-count-100-include_entities-false-owner_screen_name-icanzilb-skip_status-1-slug-RxSwift")
        #expect(TwitterRequest.userTimeline("ashfurrow", cursor: TimelineCursor()).cacheName
            == "statuses/user_timeline.json-contributor_details-false-count-100-include_rts-true-screen_name-ashfurrow")
    }

    @Test func inCodeCacheRespectsCursorAndReportsDropped() async throws {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        let json: [Any] = [
            TwitterJSONBuilder.status(id: 30), TwitterJSONBuilder.status(id: 20), "junk", TwitterJSONBuilder.status(id: 10),
        ]
        try directory.write(try TwitterJSONBuilder.data(json),
                            to: "statuses/user_timeline.json-contributor_details-false-count-100-include_rts-true-max_id-20-screen_name-ann")
        let (logger, log) = CapturingLogHandler.make()
        let source = APICacheSource(directory: directory.url, logger: logger)
        let page = try await source.timeline(of: "ann", cursor: TimelineCursor(maxId: 20))
        #expect(page.tweets.map(\.id) == [20, 10])
        #expect(page.dropped.map(\.index) == [2])
        #expect(log.messages.contains { $0.level == .warning })
    }

    @Test func badJSONIsAnErrorNamingTheFile() async throws {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        let name = "lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift"
        try directory.write(Data("{\"errors\": [".utf8), to: name)
        let source = APICacheSource(directory: directory.url)
        let error = try await #require(throws: TwitterAPIError.self) {
            try await source.timeline(of: list, cursor: TimelineCursor())
        }
        guard case .malformedJSON(let file, _) = error else { Issue.record("unexpected \(error)"); return }
        #expect(file == directory.url.appendingPathComponent(name).path)
        #expect(error.description.contains(name))
    }
}

/// API-cache files are read only when they are regular files within the size limit, and
/// undecodable elements are logged as one bounded line.
@Suite("APICacheSource refuses what is not a small regular file")
struct APICacheSourceHostileFileTests {
    static let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")
    static let name = "lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift"

    /// The reason `timeline(of:)` gives for the file prepared by `prepare` at the list timeline's name.
    static func refusal(maximumFileSize: Int = APICacheSource.defaultMaximumFileSize,
                        _ prepare: (_ path: String) throws -> Void) async throws -> String {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try prepare(path)
        let source = APICacheSource(directory: directory.url, maximumFileSize: maximumFileSize)
        let error = try await #require(throws: TwitterAPIError.self) {
            try await source.timeline(of: list, cursor: TimelineCursor())
        }
        guard case .unreadableFile(let file, let reason) = error else { Issue.record("unexpected \(error)"); return "" }
        #expect(file == path)
        #expect(error.description.contains(name))
        return reason
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() async throws {
        let reason = try await Self.refusal { path in #expect(mkfifo(path, 0o600) == 0) }
        #expect(reason == "it is a FIFO (named pipe), not a regular file; the API cache reads only regular files")
    }

    @Test func aDirectoryIsRefused() async throws {
        let reason = try await Self.refusal { path in try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        #expect(reason.hasPrefix("it is a directory, not a regular file"))
    }

    @Test func aDeviceBehindASymbolicLinkIsRefused() async throws {
        let reason = try await Self.refusal { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero") }
        #expect(reason.hasPrefix("it is a character device, not a regular file"))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() async throws {
        // A sparse file one byte over the default limit: refused from its size, nothing read.
        let reason = try await Self.refusal { path in
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(APICacheSource.defaultMaximumFileSize + 1)) == 0)
        }
        #expect(reason == "it is 33554433 bytes, more than the 32 MiB an API cache file may hold")
        let small = try await Self.refusal(maximumFileSize: 2) { path in try Data("[] ".utf8).write(to: URL(fileURLWithPath: path)) }
        #expect(small == "it is 3 bytes, more than the 2 bytes an API cache file may hold")
    }

    @Test func aFileAtTheLimitIsRead() async throws {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        try directory.write(Data("[]".utf8), to: Self.name)
        let page = try await APICacheSource(directory: directory.url, maximumFileSize: 2).timeline(of: Self.list, cursor: TimelineCursor())
        #expect(page.tweets.isEmpty && page.dropped.isEmpty)
    }

    @Test func undecodableElementsAreLoggedAsOneBoundedLine() async throws {
        let directory = TemporaryDirectory("sync")
        defer { directory.remove() }
        let junk = String(repeating: "x", count: 5000)
        let elements = ["{\"id\": \"\(junk)\"}"] + (0..<10_000).map(String.init)
        try directory.write(Data(("[" + elements.joined(separator: ",") + "]").utf8), to: Self.name)
        let (logger, log) = CapturingLogHandler.make()
        let page = try await APICacheSource(directory: directory.url, logger: logger).timeline(of: Self.list, cursor: TimelineCursor())
        #expect(page.dropped.count == 10_001)
        let warnings = log.messages.filter { $0.level == .warning }
        #expect(warnings.count == 1)
        let line = warnings.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(line.contains("10001 of 10001 elements did not decode: element 0"))
        #expect(line.contains("and 9998 more"))
        #expect(line.count < 1000, "\(line.count) characters")
    }
}
