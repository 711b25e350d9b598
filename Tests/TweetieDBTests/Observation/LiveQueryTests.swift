import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Live queries")
struct LiveQueryTests {
    static let epoch = Date(timeIntervalSince1970: 1_544_000_000)

    static func post(_ id: Int64, _ author: String, hour: Int, text: String = "t", likes: Int = 0) -> Post {
        Post(id: id, author: author, text: text, created: epoch.addingTimeInterval(Double(hour) * 3600), likes: likes)
    }

    /// Pulls the next element with a hang guard.
    /// A hang is a recorded failure (``TimedOut``), never a crash: the timeout cancels the pull,
    /// which then ends with `nil`, reported as ``ObservationEnded``.
    static func next<R>(_ iterator: UncheckedBox<QueryObservation<R>.Iterator>) async throws -> QueryChange<R> {
        try await withTimeout("a live query element", seconds: 10) { try await ObservationEnded.unwrap(iterator.value.next()) }
    }

    static func nextSectioned<S, R>(_ iterator: UncheckedBox<SectionedQueryObservation<S, R>.Iterator>) async throws -> SectionedQueryChange<S, R> {
        try await withTimeout("a sectioned live query element", seconds: 10) { try await ObservationEnded.unwrap(iterator.value.next()) }
    }

    struct Day: Hashable, Comparable, Sendable {
        var index: Int
        init(_ date: Date) { index = Int(date.timeIntervalSince1970 / 86_400) }
        static func < (a: Day, b: Day) -> Bool { a.index < b.index }
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func flatChangesetsReproduceAFreshFetch(seed: UInt64) async throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let authors = ["ann", "bob", "cy"]
        try await store.write { tx in
            for i in 0..<30 { try tx.add(Self.post(Int64(i), authors[i % 3], hour: i % 50)) }
        }
        let queries: [Query<Post>] = [
            Query<Post>().sorted(by: Post.byCreated),
            Query<Post>().sorted(by: Post.byCreated, .descending),
            Query<Post>().filter(Post.byAuthor, equals: "ann").sorted(by: Post.byAuthor),
            Query<Post>().filter { $0.likes > 0 }.sorted(byPrimaryKey: .descending),
            Query<Post>().sorted(by: Post.byCreated).limit(7),
            Query<Post>().sorted(by: Post.byAuthor).offset(3).limit(5),
        ]
        let query = queries[Int(seed) % queries.count]
        let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
        var current = try await Self.next(iterator)
        #expect(current.isInitial)
        #expect(Array(current.results) == (try await store.read { try $0.fetch(query) }))
        var delivered = 0
        for _ in 0..<60 {
            let before = try await store.read { try $0.fetch(query) }
            var ops: [(kind: Int, id: Int64, hour: Int, author: String, likes: Int)] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                ops.append((Int.random(in: 0..<6, using: &rng), Int64.random(in: 0..<45, using: &rng), Int.random(in: 0..<50, using: &rng),
                            authors.randomElement(using: &rng)!, Int.random(in: 0..<2, using: &rng)))
            }
            let plan = ops
            try await store.write { tx in
                for op in plan {
                    switch op.kind {
                    case 0: try tx.delete(Post.self, key: op.id)
                    case 1: // identical upsert: must not be reported
                        if let same = try tx.get(Post.self, key: op.id) { try tx.add(same, update: .modified) }
                    case 2: // a change of the sort field
                        if var p = try tx.get(Post.self, key: op.id) {
                            p.created = Self.epoch.addingTimeInterval(Double(op.hour) * 3600)
                            try tx.add(p, update: .modified)
                        }
                    case 3: // a change that does not move it
                        if var p = try tx.get(Post.self, key: op.id) { p.likes += 1; try tx.add(p, update: .modified) }
                    default:
                        try tx.add(Self.post(op.id, op.author, hour: op.hour, likes: op.likes), update: .modified)
                    }
                }
            }
            let fresh = try await store.read { try $0.fetch(query) }
            guard fresh != before else { continue }
            let change = try await Self.next(iterator)
            #expect(!change.isInitial)
            let old = Array(current.results)
            let new = Array(change.results)
            #expect(new == fresh)
            // Validate before applying: an invalid changeset is reported with its reason, not a crash.
            try change.changeset.validate(oldCount: old.count, newCount: new.count)
            #expect(change.changeset.apply(to: old) { new[$0] } == new)
            #expect(change.changeset.withoutMoves().apply(to: old) { new[$0] } == new)
            // Only rows whose bytes changed are reported as modified.
            for (o, n) in zip(change.changeset.modificationsInOld, change.changeset.modificationsInNew) {
                #expect(old[o] != new[n] || old[o].id == new[n].id)
            }
            current = change
            delivered += 1
        }
        #expect(delivered > 10)
    }

    @Test(arguments: [UInt64(21), 22, 23])
    func sectionedChangesetsReproduceAFreshFetch(seed: UInt64) async throws {
        var rng = SeededRandom(seed: seed)
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try await store.write { tx in
            for i in 0..<40 { try tx.add(Self.post(Int64(i), "a", hour: (i * 13) % 120)) }
        }
        let query = Query<Post>().sorted(by: Post.byCreated)
        func sections() throws -> [[Post]] {
            let rows = try store.read { try $0.fetch(query) }
            var out: [[Post]] = []
            var lastDay: Day?
            for p in rows.sorted(by: { Day($0.created) > Day($1.created) || (Day($0.created) == Day($1.created) && false) }) {
                if Day(p.created) != lastDay { out.append([]); lastDay = Day(p.created) }
                out[out.count - 1].append(p)
            }
            return out
        }
        let observation = store.observe(query, sectionedBy: { Day($0.created) }, sectionOrder: .descending)
        let iterator = UncheckedBox(observation.makeAsyncIterator())
        var current = try await Self.nextSectioned(iterator)
        #expect(current.results.sections.map(\.rows) == (try sections()))
        var delivered = 0
        for _ in 0..<50 {
            let before = try sections()
            var ops: [(delete: Bool, id: Int64, hour: Int, likes: Int)] = []
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                ops.append((Int.random(in: 0..<4, using: &rng) == 0, Int64.random(in: 0..<55, using: &rng),
                            Int.random(in: 0..<120, using: &rng), Int.random(in: 0..<2, using: &rng)))
            }
            let plan = ops
            try await store.write { tx in
                for op in plan {
                    if op.delete {
                        try tx.delete(Post.self, key: op.id)
                    } else {
                        try tx.add(Self.post(op.id, "a", hour: op.hour, likes: op.likes), update: .modified)
                    }
                }
            }
            let fresh = try sections()
            guard fresh != before else { continue }
            let change = try await Self.nextSectioned(iterator)
            let old = current.results.sections.map(\.rows)
            let new = change.results.sections.map(\.rows)
            #expect(new == fresh)
            try change.changeset.validate(oldRowCounts: old.map(\.count), newRowCounts: new.map(\.count))
            let applied = change.changeset.apply(to: old, insertedSection: { new[$0] }, newElement: { new[$0.section][$0.row] })
            #expect(applied == new)
            let appliedNoMoves = change.changeset.withoutMoves().apply(to: old, insertedSection: { new[$0] }, newElement: { new[$0.section][$0.row] })
            #expect(appliedNoMoves == new)
            current = change
            delivered += 1
        }
        #expect(delivered > 10)
    }

    @Test func slowConsumerGetsOneCoalescedExactChangeset() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let query = Query<Post>().sorted(by: Post.byCreated)
        let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
        let first = try await Self.next(iterator)
        #expect(first.results.isEmpty)
        for i in 0..<5 { try await store.write { tx in try tx.add(Self.post(Int64(i), "a", hour: i)) } }
        try await store.write { tx in try tx.delete(Post.self, key: 2) }
        let change = try await Self.next(iterator)
        #expect(change.changeset.insertions == [0, 1, 2, 3])
        #expect(Array(change.results).map(\.id) == [4, 3, 1, 0])
        #expect(change.sequence == 6)
    }

    @Test func identicalUpsertsAndUnobservedFieldsAreNotReported() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try await store.write { tx in for i in 0..<3 { try tx.add(Self.post(Int64(i), "a", hour: i)) } }
        let query = Query<Post>().sorted(byPrimaryKey: .ascending)
        let narrowed = UncheckedBox(store.observe(query, modificationsOf: [ObservedField(\Post.text)]).makeAsyncIterator())
        let plain = UncheckedBox(store.observe(query).makeAsyncIterator())
        _ = try await Self.next(narrowed)
        _ = try await Self.next(plain)
        try await store.write { tx in try tx.add(Self.post(1, "a", hour: 1), update: .modified) }      // identical
        try await store.write { tx in try tx.add(Self.post(1, "a", hour: 1, likes: 5), update: .modified) } // likes only
        try await store.write { tx in try tx.add(Self.post(2, "a", hour: 2, text: "new"), update: .modified) } // text
        let narrow = try await Self.next(narrowed)
        #expect(narrow.changeset.modificationsInNew == [2])
        let all = try await Self.next(plain)
        #expect(all.changeset.modificationsInNew == [1, 2])
        #expect(all.changeset.insertions.isEmpty && all.changeset.deletions.isEmpty)
    }

    @Test func observerBehindTheRetentionBoundGetsAFreshInitialElement() async throws {
        var configuration = StoreConfiguration()
        configuration.changeLogRetention = 3
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Query<Post>()).makeAsyncIterator())
        _ = try await Self.next(iterator)
        for i in 0..<10 { try await store.write { tx in try tx.add(Self.post(Int64(i), "a", hour: i)) } }
        let change = try await Self.next(iterator)
        #expect(change.isInitial)
        #expect(change.changeset.isEmpty)
        #expect(change.results.count == 10)
    }

    @Test func bulkChangesLoggedWithoutKeysResetObservers() async throws {
        var configuration = StoreConfiguration()
        configuration.maxListedChangesPerCommit = 5
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Query<Post>()).makeAsyncIterator())
        _ = try await Self.next(iterator)
        try await store.write { tx in for i in 0..<20 { try tx.add(Self.post(Int64(i), "a", hour: i)) } }
        let change = try await Self.next(iterator)
        #expect(change.isInitial && change.results.count == 20)
        try await store.write { tx in try tx.add(Self.post(100, "a", hour: 1)) }
        let small = try await Self.next(iterator)
        #expect(!small.isInitial && small.changeset.insertions.count == 1)
    }

    @Test func cancellingTheConsumerEndsTheObservation() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let started = Counter()
        let task = Task {
            var count = 0
            for try await _ in store.observe(Query<Post>()) {
                count += 1
                started.increment()
            }
            return count
        }
        while started.value == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let count = try await withTimeout("the cancelled observation to end", seconds: 10) { try await task.value }
        #expect(count == 1)
    }

    @Test func commitsFromAnotherStoreInstanceWakeTheObserverThroughTheNotifyFile() async throws {
        // A second Store on the same path shares the environment but has its own notifier, like
        // another process would: only the notify file and the transaction-id poll reach the observer.
        let dir = TemporaryDirectory("notify")
        defer { dir.remove() }
        let store = try Store.open(at: dir.path, collections: [Post.self])
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Query<Post>()).makeAsyncIterator())
        _ = try await Self.next(iterator)
        let other = CommitNotifier(directory: dir.path)
        try await store.environment.write { tx in
            // Write through the raw environment so the store's own notifier is not called.
            let writer = StoreWriter(store: store, transaction: tx)
            try writer.add(Self.post(1, "a", hour: 1))
            _ = try ChangeLog.append(writer.changes, maxListed: 100, retention: 100, in: tx, log: store.log, meta: store.meta)
        }
        other.didCommit(sequence: 1)
        let change = try await Self.next(iterator)
        #expect(change.changeset.insertions == [0])
        other.close()
    }
}
