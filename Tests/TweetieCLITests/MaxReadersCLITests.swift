import Dispatch
import Foundation
import Testing
@testable import TweetieSync

@Suite("tweetie-db --max-readers")
struct MaxReadersCLITests {
    /// More concurrent readers than the database's reader slots: commands fail saying what to do
    /// from the command line, and work again once the readers are gone.
    @Test func aFullReaderTableSaysToUseMaxReaders() throws {
        let db = TemporaryDatabase()
        defer { db.remove() }
        // The first process to open the database sizes lock.mdb: 4 slots.
        let created = try CLI.run(["sync", "--simulated", "--seed", "3", "--ticks", "1", "--max-readers", "4", "--db", db.path])
        #expect(created.status == 0, "\(created.stderr)")
        var configuration = StoreConfiguration()
        configuration.environment.maxReaders = 4
        let store = try TweetieDatabase.open(at: db.path, configuration: configuration)
        defer { store.close() }
        #expect(store.environment.info().maxReaders == 4)
        // Four slow readers (threads of this process) hold every slot.
        let released = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0), ended = DispatchGroup()
        for _ in 0..<4 {
            ended.enter()
            Thread {
                _ = try? store.read { _ in
                    started.signal()
                    released.wait()
                }
                ended.leave()
            }.start()
        }
        for _ in 0..<4 { started.wait() }
        for arguments in [["stats"], ["tweets", "delete", "1"], ["stats", "--max-readers", "4096"]] {
            let result = try CLI.run(arguments + ["--db", db.path])
            #expect(result.status != 0)
            #expect(result.stderr.contains("no free reader slot"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("all 4 reader slots are in use"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--max-readers"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Configuration.maxReaders"), "\(arguments): \(result.stderr)")
        }
        for _ in 0..<4 { released.signal() }
        ended.wait()
        let stats = try CLI.run(["stats", "--db", db.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.output.contains("of 4 slots"), "\(stats.output)")
    }

    @Test func maxReadersIsValidated() throws {
        for value in ["0", "-3", "\(1 << 21)"] {
            let result = try CLI.run(["stats", "--max-readers=\(value)", "--db", "/tmp/unused-\(UUID())"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("--max-readers must be between 1 and"), "\(value): \(result.stderr)")
        }
    }
}
