import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

/// LMDB's promise, kept by every command that only reads: a writer of another process, however
/// long it holds its write transaction (a large import, a process stopped inside one), never
/// holds up opening, reading, exporting, verifying or backing up.
@Suite("read commands never wait for a writer", .serialized)
struct ReadersNeverWaitCLITests {
    /// Holds a write transaction of `path` open on a thread of its own until ``release()``: the
    /// state a `SIGSTOP`ped import leaves other processes in.
    final class HeldWriter: @unchecked Sendable {
        private let inside = DispatchSemaphore(value: 0)
        private let leave = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)
        let store: Store

        init(path: String) throws {
            store = try TweetieDatabase.open(at: path)
            let thread = Thread { [store, inside, leave, finished] in
                _ = try? store.write { _ in
                    inside.signal()
                    leave.wait()
                }
                finished.signal()
            }
            thread.start()
            inside.wait()
        }

        func release() {
            leave.signal()
            finished.wait()
            store.close()
        }
    }

    @Test func everyReadCommandAnswersWhileAnotherProcessHoldsTheWriteLock() throws {
        let db = try HostileEnvironmentCLITests.synced()
        defer { db.remove() }
        let backup = db.path + "-backup"
        defer { try? FileManager.default.removeItem(atPath: backup) }
        let writer = try HeldWriter(path: db.path)
        defer { writer.release() }
        let commands: [[String]] = [
            ["stats"], ["tweets", "list"], ["users", "list"], ["feed", "list", "--once"], ["feed", "people", "--once"],
            ["schema"], ["verify"], ["export"], ["backup", backup],
        ]
        for command in commands {
            // A command that waits for the writer never returns while it is held: the timeout
            // turns that into a failure instead of a hang.
            let result: CLI.Result
            do {
                result = try CLI.run(command + ["--db", db.path], timeout: 20)
            } catch let timeout as ProcessTimeout {
                Issue.record("\(command) waited for the writer: \(timeout)")
                continue
            }
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: backup + "/data.mdb"))
    }
}
