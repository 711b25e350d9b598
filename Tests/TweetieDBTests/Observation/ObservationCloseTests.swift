import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Closing a store ends its observations with the store's error, at once: an observer waiting
/// for the next commit does not wait for one that cannot come — also while another store of the
/// same path keeps the environment open.
@Suite("Observations of a closed store")
struct ObservationCloseTests {
    static func post(_ id: Int64) -> Post { Post(id: id, author: "ann", text: "hi", created: Date(timeIntervalSince1970: Double(id)), likes: 0) }

    /// Waits (bounded) for the element after the initial one and returns how it ended.
    static func endAfterClose(_ next: @escaping @Sendable () async throws -> Void, closing store: Store) async throws -> (any Error)? {
        try await next()  // the initial results
        let pending = Task { () -> (any Error)? in
            do {
                try await next()
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(50))  // let the observer wait for a commit
        store.close()
        return try await withTimeout("the observation to end after close") { await pending.value }
    }

    @Test(arguments: [false, true])
    func closingEndsAFlatAndASectionedObservation(sectioned: Bool) async throws {
        let dir = TemporaryDirectory("observe-close")
        defer { dir.remove() }
        let other = try Store.open(at: dir.path, collections: [Post.self])
        defer { other.close() }
        let store = try Store.open(at: dir.path, collections: [Post.self])
        try await store.write { try $0.add(Self.post(1)) }
        let query = Query<Post>().sorted(byIndex: "created")
        let error: (any Error)?
        if sectioned {
            let iterator = UncheckedBox(store.observe(query, sectionedBy: { $0.author }).makeAsyncIterator())
            error = try await Self.endAfterClose({ _ = try await iterator.value.next() }, closing: store)
        } else {
            let iterator = UncheckedBox(store.observe(query).makeAsyncIterator())
            error = try await Self.endAfterClose({ _ = try await iterator.value.next() }, closing: store)
        }
        let storeError = try #require(error as? StoreError, "\(String(describing: error))")
        #expect(storeError.code == .environmentClosed && storeError.message.contains("the store is closed"))
        // The other store of the path is untouched.
        try await other.write { try $0.add(Self.post(2)) }
        #expect(try await other.read { try $0.count(Post.self) } == 2)
    }

    @Test func observingAClosedStoreFailsAtOnce() async throws {
        let store = try Store.temporary(collections: [Post.self])
        store.close()
        let iterator = UncheckedBox(store.observe(Query<Post>()).makeAsyncIterator())
        await #expect(throws: StoreError.self) { _ = try await iterator.value.next() }
    }
}

/// `everyCommit`: a commit that leaves the results unchanged still yields an element (same
/// results, empty changeset, the new position), so a caller can wait for an observer to catch up.
@Suite("Observing every commit")
struct EveryCommitObservationTests {
    @Test(arguments: [false, true])
    func aCommitThatChangesNothingObservedYieldsAnEmptyChange(sectioned: Bool) async throws {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        defer { store.close() }
        try await store.write { try $0.add(ObservationCloseTests.post(1)) }
        let query = Query<Post>().sorted(byIndex: "created")
        let next: @Sendable () async throws -> (sequence: UInt64, empty: Bool, count: Int)?
        if sectioned {
            let iterator = UncheckedBox(store.observe(query, sectionedBy: { $0.author }, everyCommit: true).makeAsyncIterator())
            next = { try await iterator.value.next().map { ($0.sequence, $0.changeset.isEmpty, $0.results.sections.reduce(0) { $0 + $1.rows.count }) } }
        } else {
            let iterator = UncheckedBox(store.observe(query, everyCommit: true).makeAsyncIterator())
            next = { try await iterator.value.next().map { ($0.sequence, $0.changeset.isEmpty, $0.results.count) } }
        }
        let initial = try #require(try await next())
        #expect(initial.count == 1)
        // A commit of another collection: nothing observed changes, yet an element arrives.
        try await store.write { try $0.add(Member(id: "m", handle: "ann", name: "Ann")) }
        let written = try await store.read { try $0.lastChangeSequence() }
        let unchanged = try #require(try await withTimeout("the element of an unchanged commit") { try await next() })
        #expect(unchanged.sequence == written && unchanged.empty && unchanged.count == 1)
        // A commit that changes the results: an ordinary change.
        try await store.write { try $0.add(ObservationCloseTests.post(2)) }
        let changed = try #require(try await withTimeout("the element of a change") { try await next() })
        #expect(!changed.empty && changed.count == 2)
    }
}
