import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Flat changesets, property-based")
struct FlatChangesPropertyTests {
    /// The fewest moves possible when rows that keep their key never move: all survivors minus
    /// a maximum-weight increasing subsequence in which same-key rows are mandatory. O(m²).
    private func minimumMoves(_ scenario: ChangeScenario) -> Int {
        let newIndex = Dictionary(uniqueKeysWithValues: scenario.new.enumerated().map { ($0.element.key.id, ($0.offset, $0.element.key)) })
        var sequence: [(newIndex: Int, weight: Int)] = []
        var rekeyed = 0
        var stable = 0
        for element in scenario.old {
            guard let (index, key) = newIndex[element.key.id] else { continue }
            if key == element.key { stable += 1 } else { rekeyed += 1 }
            sequence.append((index, key == element.key ? 100_000 : 1))
        }
        var best = [Int](repeating: 0, count: sequence.count)
        var overall = 0
        for i in sequence.indices {
            best[i] = sequence[i].weight
            for j in 0..<i where sequence[j].newIndex < sequence[i].newIndex {
                best[i] = max(best[i], best[j] + sequence[i].weight)
            }
            overall = max(overall, best[i])
        }
        return rekeyed - (overall - stable * 100_000)
    }

    @Test("applying the changeset to the old results gives the new results", arguments: 0..<4)
    func randomCommits(batch: Int) throws {
        var rng = SeededRandom(seed: 1_000 + UInt64(batch))
        for caseNumber in 0..<1_000 {
            let scenario = ChangeScenario.random(using: &rng)
            let old = scenario.oldTree
            let (tree, changeset) = old.applying(scenario.changes)
            let context = "batch \(batch) case \(caseNumber)"
            #expect(tree.invariantViolation() == nil, "\(context)")
            #expect(tree.testElements == scenario.new, "\(context)")
            #expect(old.testElements == scenario.old, "\(context): the old tree changed")
            try changeset.validate(oldCount: scenario.old.count, newCount: scenario.new.count)
            let applied = changeset.apply(to: scenario.old) { scenario.new[$0] }
            #expect(applied == scenario.new, "\(context)")
            let plain = changeset.withoutMoves()
            try plain.validate(oldCount: scenario.old.count, newCount: scenario.new.count)
            #expect(plain.moves.isEmpty)
            #expect(plain.apply(to: scenario.old) { scenario.new[$0] } == scenario.new, "\(context)")

            // Rows that keep their key never move; untouched rows are never mentioned.
            let movedIDs = Set(changeset.moves.map { scenario.old[$0.from].key.id })
            let mentionedIDs = Set(scenario.changes.compactMap { $0.oldKey?.id ?? $0.newKey?.id })
            for change in scenario.changes {
                guard let oldKey = change.oldKey, let newKey = change.newKey, oldKey == newKey else { continue }
                #expect(!movedIDs.contains(oldKey.id), "\(context): same-key row moved")
                let modified = changeset.modificationsInOld.contains { scenario.old[$0].key.id == oldKey.id }
                #expect(modified == change.contentChanged, "\(context): modification of a same-key row")
            }
            let touchedOld = changeset.deletions + changeset.moves.map(\.from) + changeset.modificationsInOld
            #expect(touchedOld.allSatisfy { mentionedIDs.contains(scenario.old[$0].key.id) }, "\(context)")
            let touchedNew = changeset.insertions + changeset.moves.map(\.to) + changeset.modificationsInNew
            #expect(touchedNew.allSatisfy { mentionedIDs.contains(scenario.new[$0].key.id) }, "\(context)")
            if scenario.old.count <= 150 {
                #expect(changeset.moves.count == minimumMoves(scenario), "\(context): moves are not minimal")
            }
        }
    }
}
