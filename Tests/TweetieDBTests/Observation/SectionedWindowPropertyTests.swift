import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A window follows the first `limit` rows of its results through every commit: its changeset
/// turns the old window's sections into the new window's, and it names exactly the rows that
/// crossed its end while staying in the results.
@Suite("Sectioned windows, property-based")
struct SectionedWindowPropertyTests {
    @Test("a window's changeset turns the old window into the first rows of the new results", arguments: 0..<4)
    func randomCommits(batch: Int) throws {
        var rng = SeededRandom(seed: 9_000 + UInt64(batch))
        for caseNumber in 0..<1_000 {
            let scenario = ChangeScenario.random(using: &rng)
            let limit = [0, 1, 2, 5, 20, 100, 400].randomElement(using: &rng)!
            let context = "batch \(batch) case \(caseNumber) limit \(limit)"
            let old = SectionedResults(rows: scenario.oldTree) { $0.day }
            var window = SectionedResultsWindow(limit: limit, of: old)
            let oldWindow = Array(scenario.old.prefix(limit))
            #expect(window.rows.rows.testElements == oldWindow, "\(context): the initial window")

            let (new, _) = old.applying(scenario.changes)
            let change = window.apply(scenario.changes, full: new)
            let newWindow = Array(scenario.new.prefix(limit))
            #expect(window.rows.rows.testElements == newWindow, "\(context): the window after the commit")
            #expect(window.hasMore(in: new) == (scenario.new.count > limit), "\(context)")
            let changed = Set(scenario.changes.flatMap { [$0.oldKey?.id, $0.newKey?.id].compactMap { $0 } })
            try Self.checkChange(change, from: oldWindow, to: newWindow, oldAll: scenario.old, newAll: scenario.new, changed: changed, context)
        }
    }

    @Test("resizing a window adds or removes rows at its end, and only there", arguments: 0..<2)
    func resizes(batch: Int) throws {
        var rng = SeededRandom(seed: 9_500 + UInt64(batch))
        for caseNumber in 0..<500 {
            let scenario = ChangeScenario.random(using: &rng)
            let results = SectionedResults(rows: scenario.oldTree) { $0.day }
            let from = Int.random(in: 0...320, using: &rng)
            let to = Int.random(in: 0...320, using: &rng)
            let context = "batch \(batch) case \(caseNumber): \(from) → \(to) of \(scenario.old.count)"
            var window = SectionedResultsWindow(limit: from, of: results)
            let change = window.resize(to: to, full: results)
            let newWindow = Array(scenario.old.prefix(to))
            #expect(window.limit == to)
            #expect(window.rows.rows.testElements == newWindow, "\(context)")
            try Self.checkChange(change, from: Array(scenario.old.prefix(from)), to: newWindow, oldAll: scenario.old, newAll: scenario.old,
                                 changed: [], context)
            #expect(change.changeset.rowMoves.isEmpty && change.changeset.rowModificationsInNew.isEmpty, "\(context)")
        }
    }

    /// The changeset is valid and turns `oldWindow` into `newWindow`; `entered` and `left` are the
    /// rows, unchanged themselves (not in `changed`), that crossed the window's end while staying
    /// in the results, and nothing else.
    static func checkChange(_ change: SectionedResultsWindow<Int, TestKey, TestRow>.Change, from oldWindow: [TestElement], to newWindow: [TestElement],
                            oldAll: [TestElement], newAll: [TestElement], changed: Set<Int>, _ context: String) throws {
        let oldSections = groupedByDay(oldWindow)
        let newSections = groupedByDay(newWindow)
        try change.changeset.validate(oldRowCounts: oldSections.map(\.count), newRowCounts: newSections.map(\.count))
        let applied = change.changeset.apply(to: oldSections, insertedSection: { newSections[$0] }) { newSections[$0.section][$0.row] }
        #expect(applied == newSections, "\(context): the changeset applied to the old window")

        let oldIDs = Set(oldWindow.map(\.key.id)), newIDs = Set(newWindow.map(\.key.id))
        let oldAllIDs = Set(oldAll.map(\.key.id)), newAllIDs = Set(newAll.map(\.key.id))
        let entered = change.entered.map { newSections[$0.section][$0.row].key.id }
        let left = change.left.map { oldSections[$0.section][$0.row].key.id }
        #expect(Set(entered) == newIDs.subtracting(oldIDs).intersection(oldAllIDs).subtracting(changed), "\(context): entered")
        #expect(Set(left) == oldIDs.subtracting(newIDs).intersection(newAllIDs).subtracting(changed), "\(context): left")
        #expect(entered.count == Set(entered).count && left.count == Set(left).count, "\(context): named once")
    }
}
