import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Changeset")
struct ChangesetTests {
    private func tree(_ pairs: [(Int, String)]) -> RankedTree<Int, String> {
        RankedTree(sortedUniqueElements: pairs.map { (key: $0.0, value: $0.1) })
    }

    @Test("documented example: a row moved to the top and a row deleted")
    func documentedExample() throws {
        let old = tree([(1, "a"), (2, "b"), (3, "c")])
        let (new, changeset) = old.applying([
            RowChange(oldKey: 3, newKey: 0, newValue: "c", contentChanged: false),
            RowChange(oldKey: 2, newKey: nil, newValue: nil, contentChanged: true),
        ])
        #expect(new.map(\.value) == ["c", "a"])
        #expect(changeset == Changeset(deletions: [1], moves: [Move(from: 2, to: 0)]))
        try changeset.validate(oldCount: 3, newCount: 2)
        let newValues = new.map(\.value)
        #expect(changeset.apply(to: old.map(\.value)) { newValues[$0] } == newValues)
        #expect(changeset.withoutMoves() == Changeset(deletions: [1, 2], insertions: [0]))
    }

    @Test("rows shifted by inserts and deletes are not moves")
    func shiftsAreNotMoves() {
        let old = tree((0..<10).map { ($0 * 10, "v\($0)") })
        let (_, changeset) = old.applying([
            RowChange(oldKey: nil, newKey: 5, newValue: "new", contentChanged: true),
            RowChange(oldKey: 90, newKey: nil, newValue: nil, contentChanged: true),
            RowChange(oldKey: 40, newKey: 41, newValue: "v4'", contentChanged: true),  // same place
            RowChange(oldKey: 50, newKey: 50, newValue: "v5", contentChanged: false),  // untouched
        ])
        #expect(changeset.moves.isEmpty)
        #expect(changeset.deletions == [9])
        #expect(changeset.insertions == [1])
        #expect(changeset.modificationsInOld == [4])
        #expect(changeset.modificationsInNew == [5])
    }

    @Test("swapping two rows costs exactly one move")
    func swapIsOneMove() {
        let old = tree([(1, "a"), (2, "b"), (3, "c"), (4, "d")])
        let (new, changeset) = old.applying([
            RowChange(oldKey: 2, newKey: 3, newValue: "b", contentChanged: true),
            RowChange(oldKey: 3, newKey: 2, newValue: "c", contentChanged: true),
        ])
        #expect(new.map(\.value) == ["a", "c", "b", "d"])
        #expect(changeset.moves.count == 1)
        #expect(changeset.modificationsInOld.count == 1)
        #expect(changeset.deletions.isEmpty && changeset.insertions.isEmpty)
    }

    @Test("the validator rejects inconsistent changesets")
    func validatorRejects() {
        let good = Changeset(deletions: [1], insertions: [0], modificationsInOld: [2], modificationsInNew: [1], moves: [Move(from: 0, to: 3)])
        // old [A, B, C, D] → new [X, C, D, A]: B deleted, X inserted, A moved to the end, C modified.
        #expect(throws: Never.self) { try good.validate(oldCount: 4, newCount: 4) }
        var broken = good
        broken.modificationsInNew = [2]  // C lands on 1, not 2
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldCount: 4, newCount: 4) }
        broken = good
        broken.modificationsInOld = [0]  // reload of a moved row
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldCount: 4, newCount: 4) }
        broken = good
        broken.deletions = [3, 1]  // unsorted
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldCount: 4, newCount: 3) }
        #expect(throws: ChangesetValidationError.self) { try good.validate(oldCount: 4, newCount: 5) }
    }

    @Test("the sectioned validator enforces UIKit's rules")
    func sectionedValidatorRejects() {
        let good = SectionedChangeset(
            sectionDeletions: [1], sectionInsertions: [0],
            rowDeletions: [RowPath(section: 0, row: 0)],
            rowInsertions: [RowPath(section: 1, row: 1)],
            rowModificationsInOld: [RowPath(section: 0, row: 1)],
            rowModificationsInNew: [RowPath(section: 1, row: 0)])
        // old: [2 rows, 3 rows]; new: [4 rows (inserted), 2 rows]
        #expect(throws: Never.self) { try good.validate(oldRowCounts: [2, 3], newRowCounts: [4, 2]) }
        let old = [["a", "b"], ["c", "d", "e"]]
        let new = [["w", "x", "y", "z"], ["B", "q"]]
        let applied = good.apply(to: old, insertedSection: { new[$0] }) { new[$0.section][$0.row] }
        #expect(applied == [["w", "x", "y", "z"], ["B", "q"]])
        var broken = good
        broken.rowDeletions.append(RowPath(section: 1, row: 0))  // a row of a deleted section
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldRowCounts: [2, 3], newRowCounts: [4, 1]) }
        broken = good
        broken.rowInsertions = [RowPath(section: 0, row: 0)]  // into an inserted section
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldRowCounts: [2, 3], newRowCounts: [4, 2]) }
        broken = good
        broken.rowInsertions = []  // row counts no longer add up
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldRowCounts: [2, 3], newRowCounts: [4, 2]) }
        broken = good
        broken.rowMoves = [RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 1, row: 1))]  // moved and reloaded
        #expect(throws: ChangesetValidationError.self) { try broken.validate(oldRowCounts: [2, 3], newRowCounts: [4, 2]) }
    }
}
