import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A record sorted by a secondary index on a field that narrowed observations do not watch.
struct Liked: Record, Identifiable, Hashable {
    static let collectionName = "liked"
    static let byLikes = Index<Liked>.on("likes", \.likes)
    static let indexes = [byLikes.index]
    var id: Int64
    var text: String
    var likes: Int

    /// What a narrowed observation (`modificationsOf: [\.text]`) promises to keep exact: the order
    /// of the rows and their watched field.
    var watched: WatchedRow { WatchedRow(id: id, text: text) }
}

struct WatchedRow: Hashable {
    var id: Int64
    var text: String
}

/// Observations narrowed to some fields (`modificationsOf:`) on rows whose sort key changes while
/// their watched fields do not: the narrowing hides *modifications* only, never moves, insertions
/// or deletions. A re-keyed row must move even when no watched field changed.
@Suite("Narrowed observations of re-keyed rows")
struct NarrowedObservationTests {
    static let byLikes = Query<Liked>().sorted(by: Liked.byLikes)
    static let watched = [ObservedField(\Liked.text)]

    static func seeded(_ likes: [Int]) async throws -> Store {
        let store = try Store.temporary(collections: [Liked.self])
        try await store.write { tx in
            for (i, count) in likes.enumerated() { try tx.add(Liked(id: Int64(i), text: "t\(i)", likes: count)) }
        }
        return store
    }

    @Test func aRowWhoseSortKeyAloneChangesMovesWithoutAModification() async throws {
        let store = try await Self.seeded([0, 10, 20, 30, 40])
        defer { store.close() }
        let iterator = UncheckedBox(store.observe(Self.byLikes, modificationsOf: Self.watched).makeAsyncIterator())
        let initial = try await LiveQueryTests.next(iterator)
        #expect(Array(initial.results).map(\.id) == [0, 1, 2, 3, 4])

        // One commit: record 0 changes only `likes` (0 → 25: it moves behind 1 and 2), and a new
        // record arrives, so the element comes even if the move were (wrongly) dropped.
        try await store.write { tx in
            try tx.add(Liked(id: 0, text: "t0", likes: 25), update: .modified)
            try tx.add(Liked(id: 9, text: "t9", likes: 50))
        }
        let moved = try await LiveQueryTests.next(iterator)
        let fresh = try await store.read { try $0.fetch(Self.byLikes) }
        try #require(Array(moved.results) == fresh, "the re-keyed row stayed in its old place")
        #expect(fresh.map(\.id) == [1, 2, 0, 3, 4, 9])
        try moved.changeset.validate(oldCount: 5, newCount: 6)
        #expect(moved.changeset.modificationsInOld.isEmpty && moved.changeset.modificationsInNew.isEmpty)
        #expect(moved.changeset.insertions == [5])
        #expect(moved.changeset.deletions.isEmpty)
        #expect(moved.changeset.moves.count == 1)
        let old = Array(initial.results)
        #expect(moved.changeset.apply(to: old) { fresh[$0] }.map(\.watched) == fresh.map(\.watched))

        // Write to the moved record again (its watched field now): found at its new place.
        try await store.write { tx in try tx.add(Liked(id: 0, text: "edited", likes: 25), update: .modified) }
        let edited = try await LiveQueryTests.next(iterator)
        let freshAgain = try await store.read { try $0.fetch(Self.byLikes) }
        #expect(Array(edited.results) == freshAgain)
        #expect(edited.changeset.modificationsInNew == [2])
        #expect(edited.changeset.moves.isEmpty && edited.changeset.insertions.isEmpty && edited.changeset.deletions.isEmpty)

        // And re-key it once more without touching the watched field: back to the front.
        try await store.write { tx in try tx.add(Liked(id: 0, text: "edited", likes: -1), update: .modified) }
        let back = try await LiveQueryTests.next(iterator)
        #expect(Array(back.results) == (try await store.read { try $0.fetch(Self.byLikes) }))
        #expect(back.changeset.modificationsInNew.isEmpty && back.changeset.moves.count == 1)
    }

    @Test func sectionedRowsWhoseSortKeyAloneChangesMoveWithoutAModification() async throws {
        // Sections of a hundred likes; rows ordered by likes inside them.
        let store = try await Self.seeded([0, 10, 20, 100, 110])
        defer { store.close() }
        let observation = store.observe(Self.byLikes, sectionedBy: { $0.likes / 100 }, modificationsOf: Self.watched)
        let iterator = UncheckedBox(observation.makeAsyncIterator())
        let initial = try await LiveQueryTests.nextSectioned(iterator)
        func sections() async throws -> [[Liked]] {
            let rows = try await store.read { try $0.fetch(Self.byLikes) }
            return Dictionary(grouping: rows) { $0.likes / 100 }.sorted { $0.key < $1.key }.map(\.value)
        }
        #expect(initial.results.sections.map(\.rows) == (try await sections()))

        // Record 0 moves inside its section (0 → 25, past record 2), record 1 to the other section (10 → 105);
        // neither watched field changes. A new record makes the element come regardless.
        try await store.write { tx in
            try tx.add(Liked(id: 0, text: "t0", likes: 25), update: .modified)
            try tx.add(Liked(id: 1, text: "t1", likes: 105), update: .modified)
            try tx.add(Liked(id: 9, text: "t9", likes: 5))
        }
        let moved = try await LiveQueryTests.nextSectioned(iterator)
        let fresh = try await sections()
        try #require(moved.results.sections.map(\.rows) == fresh, "a re-keyed row stayed in its old place")
        let old = initial.results.sections.map(\.rows)
        try moved.changeset.validate(oldRowCounts: old.map(\.count), newRowCounts: fresh.map(\.count))
        #expect(moved.changeset.rowModificationsInOld.isEmpty && moved.changeset.rowModificationsInNew.isEmpty)
        #expect(moved.changeset.rowInsertions == [RowPath(section: 0, row: 0)])
        #expect(moved.changeset.rowDeletions.isEmpty)
        #expect(moved.changeset.rowMoves.count == 2)
        let applied = moved.changeset.apply(to: old, insertedSection: { fresh[$0] }, newElement: { fresh[$0.section][$0.row] })
        #expect(applied.map { $0.map(\.watched) } == fresh.map { $0.map(\.watched) })

        // Write to both moved records again: each is found at its new place.
        try await store.write { tx in
            try tx.add(Liked(id: 0, text: "edited", likes: 25), update: .modified)
            try tx.add(Liked(id: 1, text: "edited", likes: 105), update: .modified)
        }
        let edited = try await LiveQueryTests.nextSectioned(iterator)
        let freshAgain = try await sections()
        #expect(edited.results.sections.map(\.rows) == freshAgain)
        #expect(Set(edited.changeset.rowModificationsInNew) == [RowPath(section: 0, row: 2), RowPath(section: 1, row: 1)])
        #expect(edited.changeset.rowMoves.isEmpty && edited.changeset.rowInsertions.isEmpty)
    }

    /// Random commits against narrowed observations on non-key sorts (ascending, descending,
    /// filtered, windowed): every delivered element equals a fresh fetch, its changeset applied to
    /// the previous element gives the new rows and watched fields, and exactly the rows whose
    /// watched field differs are reported modified. Every commit also edits a sentinel's text,
    /// so every commit is delivered and compared.
    @Test(arguments: [UInt64(31), 32, 33, 34])
    func randomCommitsOnNarrowedObservationsReproduceAFreshFetch(seed: UInt64) async throws {
        var rng = SeededRandom(seed: seed)
        let queries: [Query<Liked>] = [
            Self.byLikes,
            Query<Liked>().sorted(by: Liked.byLikes, .descending),
            Query<Liked>().filter { $0.likes % 3 != 0 }.sorted(by: Liked.byLikes),
            Query<Liked>().sorted(by: Liked.byLikes).offset(2).limit(8),
        ]
        let query = queries[Int(seed) % queries.count]
        let sentinel: Int64 = 1_000
        let store = try await Self.seeded((0..<25).map { _ in Int.random(in: 0..<40, using: &rng) })
        defer { store.close() }
        // Rows no commit touches, first in ascending order: the sentinel (likes -1) is in every
        // query's results, also the window that skips two rows.
        try await store.write { tx in
            for (id, likes) in [(998, -3), (999, -2), (sentinel, -1)] { try tx.add(Liked(id: id, text: "s0", likes: likes)) }
        }
        let iterator = UncheckedBox(store.observe(query, modificationsOf: Self.watched).makeAsyncIterator())
        var current = try await LiveQueryTests.next(iterator)
        try #require(Array(current.results) == (try await store.read { try $0.fetch(query) }))
        var moves = 0
        for step in 1...60 {
            var ops: [(kind: Int, id: Int64, likes: Int)] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                ops.append((Int.random(in: 0..<6, using: &rng), Int64.random(in: 0..<30, using: &rng), Int.random(in: 0..<40, using: &rng)))
            }
            let plan = ops
            try await store.write { tx in
                for op in plan {
                    let existing = try tx.get(Liked.self, key: op.id)
                    switch op.kind {
                    case 0, 1: // only the sort key changes: must move, never be reported modified
                        if var row = existing { row.likes = op.likes; try tx.add(row, update: .modified) }
                    case 2: // only the watched field changes
                        if var row = existing { row.text += "+"; try tx.add(row, update: .modified) }
                    case 3: // both
                        if var row = existing { row.text += "*"; row.likes = op.likes; try tx.add(row, update: .modified) }
                    case 4:
                        try tx.delete(Liked.self, key: op.id)
                    default:
                        try tx.add(Liked(id: op.id, text: "n\(op.id)", likes: op.likes), update: .modified)
                    }
                }
                try tx.add(Liked(id: sentinel, text: "s\(step)", likes: -1), update: .modified)
            }
            let change = try await LiveQueryTests.next(iterator)
            let fresh = try await store.read { try $0.fetch(query) }
            let old = Array(current.results)
            let context = "seed \(seed) step \(step)"
            try #require(Array(change.results) == fresh, "\(context)")
            try change.changeset.validate(oldCount: old.count, newCount: fresh.count)
            #expect(change.changeset.apply(to: old.map(\.watched)) { fresh[$0].watched } == fresh.map(\.watched), "\(context)")
            #expect(change.changeset.withoutMoves().apply(to: old.map(\.watched)) { fresh[$0].watched } == fresh.map(\.watched), "\(context)")
            // Modified: every row whose watched field changed, unless it moved (a moved row is
            // never also a modification); otherwise only rows re-keyed in place (the changeset
            // expresses "re-keyed, same place" as a modification, so that applying it gives the
            // new element).
            let oldByID = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0) })
            let modified = Set(change.changeset.modificationsInNew.map { fresh[$0].id })
            let survivors = fresh.filter { oldByID[$0.id] != nil }
            let textChanged = Set(survivors.filter { oldByID[$0.id]!.text != $0.text }.map(\.id))
            let rekeyed = Set(survivors.filter { oldByID[$0.id]!.likes != $0.likes }.map(\.id))
            let movedOrInserted = Set(change.changeset.moves.map { fresh[$0.to].id } + change.changeset.insertions.map { fresh[$0].id })
            #expect(modified.isSubset(of: textChanged.union(rekeyed)), "\(context): modified \(modified.sorted()), watched field changed \(textChanged.sorted())")
            #expect(textChanged.subtracting(movedOrInserted).isSubset(of: modified), "\(context): modified \(modified.sorted()), watched field changed \(textChanged.sorted())")
            moves += change.changeset.moves.count
            current = change
        }
        #expect(moves > 0, "the random commits never moved a row")
    }
}
