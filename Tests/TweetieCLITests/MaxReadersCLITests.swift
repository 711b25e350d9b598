import Dispatch
import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("tweetie-db --max-readers")
struct MaxReadersCLITests {
    /// Creates a database of `ticks` simulated steps whose lock file has 4 reader slots (the first
    /// process to open a database sizes lock.mdb), and opens it in this process.
    static func openWithFourSlots(_ db: TemporaryDirectory, ticks: Int) throws -> Store {
        let created = try CLI.run(["sync", "--simulated", "--seed", "3", "--ticks", "\(ticks)", "--max-readers", "4", "--db", db.path])
        #expect(created.status == 0, "\(created.stderr)")
        var configuration = StoreConfiguration()
        configuration.maxReaders = 4
        return try TweetieDatabase.open(at: db.path, configuration: configuration)
    }

    /// More concurrent readers than the database's reader slots: commands fail saying what to do
    /// from the command line, and work again once the readers are gone.
    @Test func aFullReaderTableSaysToUseMaxReaders() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        let store = try Self.openWithFourSlots(db, ticks: 1)
        defer { store.close() }
        #expect(store.info().maxReaders == 4)
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
            #expect(!result.stderr.contains("maxReaders"), "\(arguments): \(result.stderr)")
        }
        for _ in 0..<4 { released.signal() }
        ended.wait()
        let stats = try CLI.run(["stats", "--format", "table", "--db", db.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.output.contains("of 4 slots"), "\(stats.output)")
    }

    /// The probe's case: slow exports (writing into a pipe nobody reads) hold every slot, and
    /// commands fail saying what to do; once those processes are killed, their slots are
    /// reclaimed (`mdb_reader_check` when a process opens the database).
    @Test func slotsOfKilledReadersAreReclaimed() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        // Enough tweets that an export blocks on a full pipe while its read transaction is open.
        let store = try Self.openWithFourSlots(db, ticks: 300)
        defer { store.close() }
        var exports: [SpawnedProcess] = []
        defer { for export in exports where export.isRunning { kill(export.processIdentifier, SIGKILL) } }
        for _ in 0..<4 {
            let export = SpawnedProcess()
            export.executableURL = CLI.executable
            export.arguments = ["export", "--db", db.path]
            export.standardOutput = Pipe()  // never read: the export blocks with its transaction open
            export.standardError = FileHandle.nullDevice
            try export.run()
            exports.append(export)
        }
        let deadline = Date().addingTimeInterval(60)
        while store.info().readersInUse < 4 && Date() < deadline { usleep(20_000) }
        try #require(store.info().readersInUse == 4, "the exports did not all hold a reader slot")
        let full = try CLI.run(["stats", "--db", db.path])
        #expect(full.status != 0 && full.stderr.contains("no free reader slot") && full.stderr.contains("--max-readers"), "\(full.stderr)")
        for export in exports {
            kill(export.processIdentifier, SIGKILL)
            export.waitUntilExit()
        }
        // The dead exports' slots still look taken until a process checks them.
        let after = try CLI.run(["stats", "--format", "table", "--db", db.path])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.output.contains("of 4 slots"), "\(after.output)")
    }

    @Test func maxReadersIsValidated() throws {
        for value in ["0", "-3", "\(1 << 21)"] {
            let result = try CLI.run(["stats", "--max-readers=\(value)", "--db", "/tmp/unused-\(UUID())"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("--max-readers must be between 1 and"), "\(value): \(result.stderr)")
        }
    }
}
