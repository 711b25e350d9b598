import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("LMDB reader table and free list")
struct EnvironmentSpaceTests {
    /// Fills `database` with 200 values of 100 bytes, `round` in every byte.
    static func rewrite(_ env: Environment, _ database: Database, round: UInt8) throws {
        try env.write { tx in
            for i in 0..<200 { try tx.put(bigEndian(UInt64(i)), [UInt8](repeating: round, count: 100), in: database) }
        }
    }

    @Test func readerSlotsShowTheSnapshotALiveReadHolds() throws {
        let dir = TemporaryDirectory("space-readers")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let things = try env.database(named: "things")
        try Self.rewrite(env, things, round: 1)
        let me = getpid()
        #expect(env.readerSlots().allSatisfy { $0.transactionID == nil })
        let (held, snapshot) = try env.read { tx in
            (env.readerSlots().filter { $0.processID == me }.compactMap(\.transactionID), tx.id)
        }
        #expect(held == [snapshot])
        #expect(snapshot == env.lastTransactionID)
        #expect(env.readerSlots().allSatisfy { $0.transactionID == nil })
    }

    /// The mechanism behind the stress run's file growth: pages freed while a reader holds an
    /// older snapshot stay in the free list, counted as pinned, and are reused once it ends.
    @Test func pagesFreedAfterAReadersSnapshotArePinnedUntilItEnds() throws {
        let dir = TemporaryDirectory("space-free")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let things = try env.database(named: "things")
        try Self.rewrite(env, things, round: 0)
        let (snapshot, pinned, records) = try env.read { reader in
            for round in 1...20 { try Self.rewrite(env, things, round: UInt8(round)) }
            let free = try env.freeList()
            return (reader.id, free.pageCount(freedAtOrAfter: reader.id), free.records.filter { $0.transactionID > reader.id })
        }
        // Each of the 20 commits rewrote every leaf: its freed pages are one record under its own id.
        #expect(records.map(\.transactionID) == Array(snapshot + 1...snapshot + 20))
        #expect(records.allSatisfy { $0.pageCount > 0 })
        #expect(pinned >= records.reduce(0) { $0 + $1.pageCount })
        let free = try env.freeList()
        #expect(free.pageCount >= pinned)

        // With no reader left, 20 more commits reuse those pages: the file does not grow.
        let usedBefore = env.info().lastPageNumber
        for round in 21...40 { try Self.rewrite(env, things, round: UInt8(round)) }
        #expect(env.info().lastPageNumber == usedBefore)
    }
}
