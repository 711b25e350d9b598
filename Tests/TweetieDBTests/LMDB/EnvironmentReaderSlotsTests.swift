import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("LMDB reader slots")
struct EnvironmentReaderSlotsTests {
    /// `readersInUse` counts the slots held now, not the most ever used: LMDB's `me_numreaders` is
    /// a high-water mark that never goes down, so it cannot show that slots were released.
    @Test func readersInUseCountsOnlyLiveReadTransactions() throws {
        let dir = TemporaryDirectory("reader-slots")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        _ = try env.database(named: "things")
        #expect(env.info().readersInUse == 0)
        let inside = try env.read { _ in
            try env.read { _ in
                try env.read { _ in env.info().readersInUse }
            }
        }
        #expect(inside == 3)
        #expect(env.info().readersInUse == 0)
        let one = try env.read { _ in env.info().readersInUse }
        #expect(one == 1)
        #expect(env.info().readersInUse == 0)
    }
}
