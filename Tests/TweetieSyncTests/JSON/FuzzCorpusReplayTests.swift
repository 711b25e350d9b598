import Foundation
import Testing
import TweetieDB
import TweetieFuzzing
import TweetieSync
import TweetieTestSupport

/// Replays the fuzz regression corpus (Tests/Fixtures/FuzzCorpus, written by `tweetie-fuzz
/// --corpus-out`): each file's name says what must happen (`accepted-…` or `rejected-…`, and for
/// NDJSON the import mode). A rejected Twitter body must throw `TwitterAPIError.malformedJSON`; a
/// rejected import must throw `TransferError` and leave the store's export byte-identical.
@Suite("Fuzz regression corpus")
struct FuzzCorpusReplayTests {
    static let corpus = Repository.fixtures.appendingPathComponent("FuzzCorpus")

    static func files(_ target: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpus.appendingPathComponent(target), includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: ["statuses", "members", "users"])
    func twitterJSONCorpus(target: String) throws {
        let files = try Self.files(target)
        #expect(files.count >= 3, "the \(target) corpus is missing")
        for file in files {
            let name = file.lastPathComponent
            let data = try Data(contentsOf: file)
            let outcome: Result<Int, any Error> = Result {
                switch target {
                case "statuses": try TwitterJSON.decodeStatuses(data, source: name).items.count
                case "members": try TwitterJSON.decodeMembers(data, source: name).items.count
                default: try TwitterJSON.decodeUsers(data, source: name).items.count
                }
            }
            switch outcome {
            case .success:
                #expect(name.hasPrefix("accepted-"), "\(name) was accepted")
            case .failure(let error):
                #expect(name.hasPrefix("rejected-"), "\(name) was rejected: \(error)")
                guard case TwitterAPIError.malformedJSON(let source, let reason)? = error as? TwitterAPIError else {
                    Issue.record("\(name): expected TwitterAPIError.malformedJSON, got \(type(of: error)): \(error)")
                    continue
                }
                #expect(source == name && !reason.isEmpty)
            }
            // Whatever the verdict, the oracle the fuzzer uses must find nothing wrong.
            #expect(throws: Never.self, "\(name)") { _ = try JSONFuzzOracle(target: FuzzTarget(rawValue: target)!).run(Array(data)) }
        }
    }

    @Test func ndjsonImportCorpus() throws {
        let files = try Self.files("ndjson")
        #expect(files.count >= 5, "the ndjson corpus is missing")
        let store = try TweetieDatabase.temporary()
        defer { store.close() }
        try FuzzSeeds.seed(store)
        let before = try FuzzSeeds.export(store)
        for file in files {
            let name = file.lastPathComponent
            let mode: ImportMode = name.contains("-replace-") ? .replace : .merge
            let fd = open(file.path, O_RDONLY)
            #expect(fd >= 0)
            defer { Glibc.close(fd) }
            do {
                _ = try store.importNDJSON(from: fd, mode: mode)
                #expect(name.hasPrefix("accepted-"), "\(name) was accepted")
                #expect(try store.verify().problems.isEmpty, "\(name)")
                // Put the seed back for the next file.
                try FuzzSeeds.restore(store, to: before)
            } catch let error as TransferError {
                #expect(name.hasPrefix("rejected-"), "\(name) was rejected: \(error)")
                #expect(!error.reason.isEmpty)
                #expect(try FuzzSeeds.export(store) == before, "\(name): a rejected import changed the database")
            } catch {
                Issue.record("\(name): expected TransferError, got \(type(of: error)): \(error)")
            }
        }
        #expect(try FuzzSeeds.export(store) == before)
    }
}
