import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Sectioned changesets, property-based")
struct SectionedChangesPropertyTests {
    @Test("applying the sectioned changeset to the old sections gives the new sections", arguments: 0..<4)
    func randomCommits(batch: Int) throws {
        var rng = SeededRandom(seed: 2_000 + UInt64(batch))
        for caseNumber in 0..<1_000 {
            let scenario = ChangeScenario.random(using: &rng)
            let old = SectionedResults(rows: scenario.oldTree) { $0.day }
            let (new, changeset) = old.applying(scenario.changes)
            let context = "batch \(batch) case \(caseNumber)"
            let oldSections = groupedByDay(scenario.old)
            let newSections = groupedByDay(scenario.new)
            #expect(new.rows.testElements == scenario.new, "\(context)")
            #expect(new.sections.invariantViolation() == nil, "\(context)")
            #expect(new.sections.map(\.key) == newSections.map { $0[0].key.day }, "\(context)")
            #expect(new.sectionArrays().map { $0.map { TestElement(key: $0.key, value: $0.value) } } == newSections, "\(context)")
            #expect((0..<new.numberOfSections).map(new.numberOfRows(inSection:)) == newSections.map(\.count), "\(context)")

            let oldCounts = oldSections.map(\.count)
            let newCounts = newSections.map(\.count)
            try changeset.validate(oldRowCounts: oldCounts, newRowCounts: newCounts)
            #expect(changeset.sectionMoves.isEmpty, "\(context): key-ordered sections never move")
            let element = { (path: RowPath) in newSections[path.section][path.row] }
            #expect(changeset.apply(to: oldSections, insertedSection: { newSections[$0] }, newElement: element) == newSections, "\(context)")
            let plain = changeset.withoutMoves()
            try plain.validate(oldRowCounts: oldCounts, newRowCounts: newCounts)
            #expect(plain.rowMoves.isEmpty && plain.sectionMoves.isEmpty)
            #expect(plain.apply(to: oldSections, insertedSection: { newSections[$0] }, newElement: element) == newSections, "\(context)")

            // Rows that keep their key never move, and the flat/index-path conversions agree.
            for change in scenario.changes {
                guard let oldKey = change.oldKey, oldKey == change.newKey, let path = old.rowPath(of: oldKey) else { continue }
                #expect(!changeset.rowMoves.contains { $0.from == path }, "\(context): same-key row moved")
            }
            for _ in 0..<5 where !scenario.new.isEmpty {
                let flat = Int.random(in: 0..<scenario.new.count, using: &rng)
                let path = new.rowPath(forFlatIndex: flat)
                #expect(new.flatIndex(for: path) == flat, "\(context)")
                #expect(new[path].key == scenario.new[flat].key, "\(context)")
                #expect(newSections[path.section][path.row] == scenario.new[flat], "\(context)")
            }
        }
    }

    @Test("a lone row changing day deletes its section and inserts the new one")
    func loneRowChangesDay() throws {
        let rows = RankedTree(sortedUniqueElements: [
            (key: TestKey(day: 0, rank: 0, id: 0), value: TestRow(id: 0, version: 0)),
            (key: TestKey(day: 1, rank: 0, id: 1), value: TestRow(id: 1, version: 0)),
            (key: TestKey(day: 1, rank: 1, id: 2), value: TestRow(id: 2, version: 0)),
        ])
        let old = SectionedResults(rows: rows) { $0.day }
        let (new, changeset) = old.applying([
            RowChange(oldKey: TestKey(day: 0, rank: 0, id: 0), newKey: TestKey(day: 5, rank: 0, id: 0),
                      newValue: TestRow(id: 0, version: 1), contentChanged: true),
            RowChange(oldKey: TestKey(day: 1, rank: 0, id: 1), newKey: TestKey(day: 1, rank: 9, id: 1),
                      newValue: TestRow(id: 1, version: 1), contentChanged: true),
        ])
        #expect(new.numberOfSections == 2)
        #expect(changeset.sectionDeletions == [0])
        #expect(changeset.sectionInsertions == [1])
        #expect(changeset.rowDeletions.isEmpty && changeset.rowInsertions.isEmpty)
        #expect(changeset.rowMoves == [RowMove(from: RowPath(section: 1, row: 0), to: RowPath(section: 0, row: 1))])
        #expect(changeset.rowModificationsInOld.isEmpty)
        try changeset.validate(oldRowCounts: [1, 2], newRowCounts: [2, 1])
    }

    @Test("a row moving to an adjacent section is a move even if its flat position stays")
    func crossSectionMoveAtSamePosition() throws {
        let rows = RankedTree(sortedUniqueElements: [
            (key: TestKey(day: 0, rank: 0, id: 0), value: TestRow(id: 0, version: 0)),
            (key: TestKey(day: 0, rank: 1, id: 1), value: TestRow(id: 1, version: 0)),
            (key: TestKey(day: 1, rank: 0, id: 2), value: TestRow(id: 2, version: 0)),
        ])
        let old = SectionedResults(rows: rows) { $0.day }
        let (_, changeset) = old.applying([
            RowChange(oldKey: TestKey(day: 0, rank: 1, id: 1), newKey: TestKey(day: 1, rank: -1, id: 1),
                      newValue: TestRow(id: 1, version: 1), contentChanged: true),
        ])
        #expect(changeset.rowMoves == [RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 1, row: 0))])
        #expect(changeset.rowModificationsInOld.isEmpty)
        try changeset.validate(oldRowCounts: [2, 1], newRowCounts: [1, 2])
        // The flat changeset keeps the same row in place as a modification.
        let (_, flat) = rows.applying([
            RowChange(oldKey: TestKey(day: 0, rank: 1, id: 1), newKey: TestKey(day: 1, rank: -1, id: 1),
                      newValue: TestRow(id: 1, version: 1), contentChanged: true),
        ])
        #expect(flat == Changeset(modificationsInOld: [1], modificationsInNew: [1]))
    }
}
