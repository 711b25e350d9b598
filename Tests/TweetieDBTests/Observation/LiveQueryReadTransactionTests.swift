import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Live queries keep their read transactions short")
struct LiveQueryReadTransactionTests {
    /// Counts calls of the section closure and how many of them ran while this process held a read
    /// transaction on the store (seen in LMDB's reader table).
    final class Probe: Sendable {
        let environment: Environment
        let counts = Mutex((calls: 0, insideRead: 0))

        init(_ environment: Environment) { self.environment = environment }

        func record() {
            let me = getpid()
            let inside = environment.readerSlots().contains { $0.processID == me && $0.transactionID != nil }
            counts.withLock { $0.calls += 1; $0.insideRead += inside ? 1 : 0 }
        }
    }

    /// Records are decoded, keyed (here: sectioned) and compared after the read transaction that
    /// copied them ended, for the initial results and for every changeset: an open read
    /// transaction pins every page freed by later commits, so work done inside it grows data.mdb.
    @Test func recordsAreDecodedAndKeyedAfterTheReadTransactionEnds() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try await store.write { tx in
            for i in 0..<12 { try tx.add(LiveQueryTests.post(Int64(i), "ann", hour: i * 5)) }
        }
        let probe = Probe(store.environment)
        let observation = store.observe(Query<Post>().sorted(by: Post.byCreated), sectionedBy: { post in
            probe.record()
            return LiveQueryTests.Day(post.created)
        }, modificationsOf: [ObservedField(\Post.likes)])
        let iterator = UncheckedBox(observation.makeAsyncIterator())
        let first = try await LiveQueryTests.nextSectioned(iterator)
        #expect(first.isInitial && first.results.numberOfSections > 1)
        #expect(probe.counts.withLock { $0.calls } >= 12)

        for step in 0..<6 {
            try await store.write { tx in
                try tx.add(LiveQueryTests.post(Int64(100 + step), "bob", hour: step * 7))
                if var moved = try tx.get(Post.self, key: Int64(step)) {
                    moved.created = moved.created.addingTimeInterval(86_400)
                    moved.likes += 1
                    try tx.add(moved, update: .modified)
                }
                try tx.delete(Post.self, key: Int64(11 - step))
            }
            let change = try await LiveQueryTests.nextSectioned(iterator)
            #expect(!change.isInitial && !change.changeset.isEmpty)
        }
        let counts = probe.counts.withLock { $0 }
        #expect(counts.calls > 12)
        #expect(counts.insideRead == 0, "\(counts.insideRead) of \(counts.calls) section computations ran inside a read transaction")
    }
}
