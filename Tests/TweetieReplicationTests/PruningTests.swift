import Foundation
import Testing
import TweetieDB
@testable import TweetieReplication
import TweetieSync
import TweetieTestSupport

/// Pruning the server's change table: what a present device has not read stays, what everyone
/// read goes, tombstones go with their delete, and a device away past the retention reads a
/// snapshot and loses nothing.
extension PostgresSuites {
@Suite("Pruning", .serialized)
struct PruningTests {
    @Test func pruningKeepsWhatAPresentDeviceHasNotRead() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        let hour = Duration.seconds(3_600)
        try await a.write { tx in for id in 1...10 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        try await ra.once()
        try await rb.once()
        #expect(try await ra.prune(retention: hour).prunedChanges == 10)
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.changes") == "0")

        // b has not read these two: they stay.
        try await a.write { tx in
            _ = try tx.delete(Tweet.self, key: 1)
            try tx.add(tweet(2, "edited"), update: .all)
        }
        try await ra.once()
        let kept = try await ra.prune(retention: hour)
        #expect(kept.prunedChanges == 0 && kept.removedTombstones == 0)
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.changes") == "2")
        let pulled = try await rb.once()
        #expect(!pulled.pull.snapshot && pulled.pull.changes == 2)

        // Now both have: the changes go, and the tombstone of key 1 with its delete.
        let both = try await rb.prune(retention: hour)
        #expect(both.prunedChanges == 2 && both.removedTombstones == 1)
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.records WHERE deleted") == "0")
        // Removing a tombstone deleted nothing a device holds: it logged no change.
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.changes") == "0")
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }

    @Test func aDeviceAwayPastTheRetentionReadsASnapshotAndLosesNothing() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        try await a.write { tx in for id in 1...10 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        try await ra.once()
        try await rb.once()
        // b is away and writes; a deletes and edits; everything older than no time at all goes.
        try await b.write { tx in try tx.add(tweet(100, "written offline"), update: .all) }
        try await a.write { tx in
            _ = try tx.delete(Tweet.self, key: 3)
            try tx.add(tweet(4, "edited while b was away"), update: .all)
        }
        try await ra.once()
        let pruned = try await ra.prune(retention: .zero)
        #expect(pruned.prunedChanges == 12 && pruned.removedTombstones == 1)
        let back = try await rb.once()
        #expect(back.pull.snapshot)
        #expect(try await b.read { try $0.get(Tweet.self, key: 3) } == nil)
        #expect(try await b.read { try $0.get(Tweet.self, key: 4)?.text } == "edited while b was away")
        #expect(try await b.read { try $0.get(Tweet.self, key: 100)?.text } == "written offline")
        try await ra.once()
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }

    @Test func aDeviceThatNeverReadsHoldsTheLogOnlyForTheRetention() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        try await rb.once()
        try await a.write { tx in for id in 1...5 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        try await ra.once()
        // b is seen (it prunes, which counts as being seen) but reads nothing: the first pruning
        // only marks where the log ends; once that mark is older than the retention, the
        // changes before it go whoever has not read them.
        #expect(try await rb.prune(retention: .seconds(1)).prunedChanges == 0)
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(try await rb.prune(retention: .seconds(1)).prunedChanges == 5)
        #expect(try await rb.once().pull.snapshot)
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
    }

    @Test(.timeLimit(.minutes(1))) func runPrunesOnItsOwn() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a, retention: .seconds(3_600)), rb = try fixture.replicator(b, retention: .seconds(3_600))
        try await ra.once()
        try await rb.once()
        let runs = [Task { try await ra.run() }, Task { try await rb.run() }]
        defer { runs.forEach { $0.cancel() } }
        try await a.write { tx in for id in 1...10 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        var remaining = ""
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            remaining = try fixture.psql("SELECT (SELECT count(*) FROM tweetie.changes) || '/' || (SELECT count(*) FROM tweetie.horizon)")
            if remaining == "0/1", try await b.read({ try $0.count(Tweet.self) }) == 10 { break }
        }
        #expect(remaining == "0/1", "changes left / horizon rows")
        #expect(try await b.read { try $0.count(Tweet.self) } == 10)
        runs.forEach { $0.cancel() }
        for run in runs { try await run.value }
    }

    @Test func concurrentPruningsAndAMinimumIntervalDoTheWorkOnce() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a), rb = try fixture.replicator(b)
        try await a.write { tx in for id in 1...20 { try tx.add(tweet(Int64(id), "a\(id)")) } }
        try await ra.once()
        try await rb.once()
        async let first = ra.prune(retention: .seconds(3_600), minimumInterval: .seconds(3_600))
        async let second = rb.prune(retention: .seconds(3_600), minimumInterval: .seconds(3_600))
        let total = try await first.prunedChanges + second.prunedChanges
        #expect(total == 20)
        try await a.write { tx in try tx.add(tweet(21, "later")) }
        try await ra.once()
        try await rb.once()
        // Within the minimum interval of the last pruning: nothing happens.
        #expect(try await ra.prune(retention: .seconds(3_600), minimumInterval: .seconds(3_600)).prunedChanges == 0)
        #expect(try fixture.psql("SELECT count(*) FROM tweetie.changes") == "1")
        await #expect(throws: ReplicationError.self) { try await ra.prune(retention: .seconds(-1)) }
    }
}
}
