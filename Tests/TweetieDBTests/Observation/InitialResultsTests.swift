import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// An observation's initial results are read by their own walk (specialized for the record type,
/// sort keys taken from the walked keys when the walk is in the query's order). They must be
/// exactly the fetch's, and the key table built beside them must locate every row for the next
/// changeset, in every shape of query plan.
@Suite("An observation's initial results are the fetch's, in every query plan")
struct InitialResultsTests {
    /// One query per plan shape: primary walk, index walk in order, index walk out of order
    /// (sorted in memory), descending sorts whose walked keys are inverted, closure filters.
    static let queries: [(String, Query<Post>)] = [
        ("primary key", Query<Post>()),
        ("primary key, descending", Query<Post>().sorted(byPrimaryKey: .descending)),
        ("index", Query<Post>().sorted(byIndex: "created")),
        ("index, descending", Query<Post>().sorted(byIndex: "created", .descending)),
        ("index filter, primary-key sort", Query<Post>().filter(index: "author", equals: "ann")),
        ("index filter, its own sort", Query<Post>().filter(index: "author", equals: "bob").sorted(byIndex: "author", .descending)),
        ("index filter, another index's sort", Query<Post>().filter(index: "author", equals: "cat").sorted(byIndex: "created")),
        ("closure filter", Query<Post>().filter { $0.likes % 3 != 0 }.sorted(byIndex: "created", .descending)),
    ]

    /// A store of 90 posts whose ids and times are in different orders, several per day and per hour.
    static func filledStore() async throws -> Store {
        let store = try Store.temporary(collections: [Post.self])
        let authors = ["ann", "bob", "cat"]
        try await store.write { tx in
            for i in 0..<90 {
                try tx.add(LiveQueryTests.post(Int64((i * 37) % 90), authors[i % 3], hour: (i * 7) % 120, likes: i))
            }
        }
        return store
    }

    @Test(arguments: 0..<queries.count)
    func flatInitialResultsAndTheFirstChangeMatchTheFetch(_ which: Int) async throws {
        let (name, query) = Self.queries[which]
        let store = try await Self.filledStore()
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
        let first = try await LiveQueryTests.next(iterator)
        let fetched = try await store.read { try $0.fetch(query) }
        #expect(first.isInitial)
        #expect(first.results.map(\.id) == fetched.map(\.id), "\(name): the initial results")
        #expect(Array(first.results) == fetched, "\(name): the initial records")

        try await Self.change(store, fetched)
        let second = try await LiveQueryTests.next(iterator)
        let refetched = try await store.read { try $0.fetch(query) }
        #expect(second.results.map(\.id) == refetched.map(\.id), "\(name): the results after a change")
        let applied = second.changeset.apply(to: fetched.map(\.id)) { second.results[$0].id }
        #expect(applied == refetched.map(\.id), "\(name): the changeset applied to the initial results")
    }

    @Test(arguments: 0..<queries.count)
    func sectionedInitialResultsAndTheFirstChangeMatchTheFetch(_ which: Int) async throws {
        let (name, query) = Self.queries[which]
        let store = try await Self.filledStore()
        defer { store.close() }
        let observation = store.observe(query, sectionedBy: { LiveQueryTests.Day($0.created) }, sectionOrder: .descending)
        let iterator = UncheckedBox(observation.makeAsyncIterator())
        let first = try await LiveQueryTests.nextSectioned(iterator)
        #expect(first.isInitial)
        let fetched = try await store.read { try $0.fetch(query) }
        #expect(Self.flattened(first.results) == Self.expected(fetched), "\(name): the initial sections")

        let before = first.results.sections.map { $0.rows.map(\.id) }
        try await Self.change(store, fetched)
        let second = try await LiveQueryTests.nextSectioned(iterator)
        let expected = Self.expected(try await store.read { try $0.fetch(query) })
        #expect(Self.flattened(second.results) == expected, "\(name): the sections after a change")
        let applied = second.changeset.apply(to: before, insertedSection: { second.results.rows(inSection: $0).map(\.id) },
                                             newElement: { second.results[$0].id })
        #expect(applied.flatMap { $0 } == expected.flatMap(\.ids), "\(name): the changeset applied to the initial sections")
    }

    /// Deletes one fetched post, moves another to another day, modifies a third and adds post
    /// `newID`.
    static func change(_ store: Store, _ fetched: [Post], newID: Int64 = 500) async throws {
        let ids = fetched.map(\.id)
        try await store.write { tx in
            if ids.count > 2 {
                try tx.delete(Post.self, key: ids[ids.count / 2])
                if var moved = try tx.get(Post.self, key: ids[0]) {
                    moved.created = moved.created.addingTimeInterval(3 * 86_400)
                    try tx.add(moved, update: .all)
                }
                if var liked = try tx.get(Post.self, key: ids[ids.count - 1]) {
                    liked.likes += 1
                    try tx.add(liked, update: .all)
                }
            }
            try tx.add(LiveQueryTests.post(newID, "cat", hour: 61, likes: 1))
        }
    }

    /// The fetch's records grouped by day, days descending, each day in the query's order.
    static func expected(_ fetched: [Post]) -> [DayRows] {
        var days: [Int: [Int64]] = [:]
        for post in fetched { days[LiveQueryTests.Day(post.created).index, default: []].append(post.id) }
        return days.keys.sorted(by: >).map { DayRows(day: $0, ids: days[$0]!) }
    }

    static func flattened(_ results: SectionedQueryResults<LiveQueryTests.Day, Post>) -> [DayRows] {
        results.sections.map { DayRows(day: $0.key.index, ids: $0.rows.map(\.id)) }
    }

    struct DayRows: Equatable {
        var day: Int
        var ids: [Int64]
    }
}
