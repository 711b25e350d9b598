import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// The change log's retention boundary (`ChangeLog.read`'s truncation test), property-based:
/// random retention bounds (below and above the 64 where pruning goes in batches) and readers
/// that fall behind by a number of entries around what the log holds.
@Suite("Change-log retention boundary, property-based")
struct RetentionBoundaryPropertyTests {
    /// A slice after `s` is truncated exactly when an entry in `s+1…last` was pruned; otherwise it
    /// holds every one of them, in order.
    @Test(arguments: 0..<4)
    func aSliceIsTruncatedExactlyWhenAnEntryAfterItsStartWasPruned(batch: Int) throws {
        var rng = SeededRandom(seed: 3_000 + UInt64(batch))
        for caseNumber in 0..<6 {
            let retention = [Int.random(in: 1...8, using: &rng), Int.random(in: 9...64, using: &rng),
                             Int.random(in: 65...300, using: &rng)].randomElement(using: &rng)!
            var configuration = StoreConfiguration()
            configuration.changeLogRetention = retention
            let store = try Store.temporary(collections: [Post.self], configuration: configuration)
            defer { store.close() }
            let commits = Int.random(in: retention...(3 * retention + 70), using: &rng)
            for i in 0..<commits {
                try store.write { tx in try tx.add(LiveQueryTests.post(Int64(i % 40), "a", hour: i), update: .modified) }
            }
            let range = try #require(try store.read { try $0.changeLogRange() })
            let last = UInt64(commits)
            let context = "batch \(batch) case \(caseNumber): retention \(retention), \(commits) commits, log \(range)"
            #expect(range.upperBound == last, "\(context)")
            let held = range.count
            #expect(held >= min(retention, commits) && held <= retention + Int(ChangeLog.pruneBatch(retention: retention)) - 1, "\(context)")
            // Readers behind by held - 1, held, held + 1 (and a few more) entries, and at random.
            var starts: Set<UInt64> = [0, last, last - 1]
            for lag in [held - 1, held, held + 1, held + 2] where lag >= 0 && lag <= Int(last) { starts.insert(last - UInt64(lag)) }
            for _ in 0..<4 { starts.insert(UInt64.random(in: 0...last, using: &rng)) }
            for start in starts.sorted() {
                let slice = try store.read { try $0.changeLog(after: start) }
                let pruned = start + 1 < range.lowerBound
                #expect(slice.lastSequence == last, "\(context), after \(start)")
                #expect(slice.isTruncated == pruned, "\(context), after \(start): truncated \(slice.isTruncated)")
                if !pruned {
                    #expect(slice.entries.map(\.sequence) == Array((start + 1)..<(last + 1)), "\(context), after \(start)")
                }
            }
        }
    }

    /// An observer that fell behind by k entries receives an exact changeset while the log still
    /// holds the k entries, and a fresh initial element from the first k it does not: k around
    /// the retention bound and the prune batch.
    @Test(arguments: [1, 3, 64, 130])
    func anObserverBehindByKEntriesGetsAChangesetExactlyWhileTheLogHoldsThem(retention: Int) async throws {
        let batch = Int(ChangeLog.pruneBatch(retention: retention))
        var rng = SeededRandom(seed: 4_000 + UInt64(retention))
        for lag in Set([retention - 1, retention, retention + 1, retention + batch - 1, retention + batch, retention + batch + 1,
                        Int.random(in: 1...(2 * retention + batch), using: &rng)]).sorted() where lag > 0 {
            var configuration = StoreConfiguration()
            configuration.changeLogRetention = retention
            let store = try Store.temporary(collections: [Post.self], configuration: configuration)
            defer { store.close() }
            // Some history first, so that pruning is under way at a random phase of its batch.
            let history = Int.random(in: 0...(retention + 2 * batch), using: &rng)
            for i in 0..<history { try await store.write { tx in try tx.add(LiveQueryTests.post(Int64(i % 30), "a", hour: i), update: .modified) } }
            let query = Query<Post>().sorted(by: Post.byCreated)
            let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
            let initial = try await LiveQueryTests.next(iterator)
            // The observer does not pull while `lag` commits land.
            for i in 0..<lag {
                try await store.write { tx in try tx.add(LiveQueryTests.post(Int64((history + i) % 30), "b", hour: 100 + i), update: .modified) }
            }
            let range = try #require(try await store.read { try $0.changeLogRange() })
            let held = initial.sequence + 1 >= range.lowerBound
            let change = try await LiveQueryTests.next(iterator)
            let fresh = try await store.read { try $0.fetch(query) }
            let context = "retention \(retention), history \(history), behind by \(lag), log \(range), observer at \(initial.sequence)"
            #expect(change.isInitial == !held, "\(context)")
            #expect(change.sequence == range.upperBound, "\(context)")
            #expect(Array(change.results) == fresh, "\(context)")
            if held {
                let old = Array(initial.results)
                try change.changeset.validate(oldCount: old.count, newCount: fresh.count)
                #expect(change.changeset.apply(to: old) { fresh[$0] } == fresh, "\(context)")
            }
        }
    }
}
