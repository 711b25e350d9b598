import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

/// What `Store.write` documents about its body running more than once after the map grows.
@Suite("A write body that runs again")
struct WriteRerunTests {
    @Test func aBodyForcedThroughMapGrowthRunsAgainFromAFreshTransactionAndCommitsOnce() throws {
        var configuration = StoreConfiguration()
        configuration.mapSize = 1 << 20
        configuration.durability = .noSync
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        let epoch = Date(timeIntervalSince1970: 0)
        var runs = 0                  // a side effect outside the body: repeated by every run
        var changesAtStart: [Int] = []
        var sequences: [UInt64] = []
        let stored = try store.write { tx -> Int in
            runs += 1
            changesAtStart.append(tx.changes.count)
            sequences.append(try tx.lastChangeSequence())
            var written = 0           // state inside the body: fresh in every run
            for i in 1...6_000 {
                try tx.add(Post(id: Int64(i), author: "a", text: String(repeating: "x", count: 300), created: epoch, likes: i))
                written += 1
            }
            return written
        }
        // The body ran once per map size: 1 MiB, 2 MiB, 4 MiB (about 2.5 MiB of posts).
        #expect(store.environment.info().mapSize == 4 << 20)
        #expect(runs == 3, "the side-effect counter outside the body counts every run")
        // Every run started from the database as it was, with an empty change record.
        #expect(changesAtStart == Array(repeating: 0, count: runs))
        #expect(sequences == Array(repeating: 0, count: runs))
        // The value of the run that committed is returned; its effects are committed once.
        #expect(stored == 6_000)
        #expect(try store.read { try $0.count(Post.self) } == 6_000)
        #expect(try store.read { try $0.lastChangeSequence() } == 1)
        #expect(try store.verify().problems.isEmpty)
    }
}
