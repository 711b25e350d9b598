import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A row key with many ties: (day, rank) with the record id as tie breaker.
struct TestKey: Comparable, Hashable, Sendable, CustomStringConvertible {
    var day: Int
    var rank: Int
    var id: Int

    static func < (lhs: TestKey, rhs: TestKey) -> Bool {
        (lhs.day, lhs.rank, lhs.id) < (rhs.day, rhs.rank, rhs.id)
    }

    var description: String { "(\(day),\(rank),#\(id))" }
}

/// A row's stored contents.
struct TestRow: Hashable, Sendable {
    var id: Int
    var version: Int
}

/// A row as compared by the tests: key and value.
struct TestElement: Hashable, Sendable {
    var key: TestKey
    var value: TestRow
}

/// Random old results, a random commit and the expected new results.
struct ChangeScenario {
    var old: [TestElement]
    var changes: [RowChange<TestKey, TestRow>]
    var new: [TestElement]

    var oldTree: RankedTree<TestKey, TestRow> {
        RankedTree(sortedUniqueElements: old.map { (key: $0.key, value: $0.value) })
    }

    static func random(using rng: inout SeededRandom) -> ChangeScenario {
        let rowCount = Int.random(in: 0..<5, using: &rng) == 0 ? Int.random(in: 0...6, using: &rng) : Int.random(in: 0...300, using: &rng)
        let dayCount = Int.random(in: 1...8, using: &rng)
        let rankCount = Int.random(in: 1...20, using: &rng)
        func randomKey(id: Int, _ rng: inout SeededRandom) -> TestKey {
            TestKey(day: Int.random(in: 0..<dayCount, using: &rng), rank: Int.random(in: 0..<rankCount, using: &rng), id: id)
        }
        let old = (0..<rowCount)
            .map { TestElement(key: randomKey(id: $0, &rng), value: TestRow(id: $0, version: 0)) }
            .sorted { $0.key < $1.key }
        var current: [Int: TestElement] = [:]
        for element in old { current[element.key.id] = element }
        var changes: [RowChange<TestKey, TestRow>] = []
        let probability = [0.02, 0.1, 0.3, 0.8, 1.0].randomElement(using: &rng)!
        for (index, element) in old.enumerated() where Double.random(in: 0..<1, using: &rng) < probability {
            var key = element.key
            var value = element.value
            var contentChanged = true
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:  // deleted or filtered out
                current[key.id] = nil
                changes.append(RowChange(oldKey: element.key, newKey: nil, newValue: nil, contentChanged: Bool.random(using: &rng)))
                continue
            case 1:  // content-only modification
                value.version += 1
            case 2:  // mentioned, nothing changed
                contentChanged = false
            case 3:  // arbitrary key change
                key = randomKey(id: key.id, &rng)
                value.version += 1
            case 4:  // small key change, maybe without a content change
                key.rank += Bool.random(using: &rng) ? 1 : -1
                contentChanged = Bool.random(using: &rng)
                if contentChanged { value.version += 1 }
            case 5:  // key change staying between the neighbours when possible
                let previous = index > 0 ? old[index - 1].key : nil
                let next = index + 1 < old.count ? old[index + 1].key : nil
                let low = previous.flatMap { $0.day == key.day ? $0.rank : nil } ?? key.rank - 2
                let high = next.flatMap { $0.day == key.day ? $0.rank : nil } ?? key.rank + 2
                key.rank = Int.random(in: min(low, high)...max(low, high), using: &rng)
                value.version += 1
            default:  // day change (moves between sections)
                key.day = Int.random(in: 0..<dayCount + 1, using: &rng)
                value.version += 1
            }
            current[key.id] = TestElement(key: key, value: value)
            changes.append(RowChange(oldKey: element.key, newKey: key, newValue: value, contentChanged: contentChanged))
        }
        let insertCount = Int.random(in: 0...(rowCount / 5 + 5), using: &rng)
        for offset in 0..<insertCount {
            let id = rowCount + offset
            let element = TestElement(key: randomKey(id: id, &rng), value: TestRow(id: id, version: 0))
            current[id] = element
            changes.append(RowChange(oldKey: nil, newKey: element.key, newValue: element.value, contentChanged: true))
        }
        if Bool.random(using: &rng) {  // a change for a record that is in neither version
            changes.append(RowChange(oldKey: nil, newKey: nil, newValue: nil, contentChanged: true))
        }
        changes.shuffle(using: &rng)
        return ChangeScenario(old: old, changes: changes, new: current.values.sorted { $0.key < $1.key })
    }
}

extension RankedTree where Key == TestKey, Value == TestRow {
    var testElements: [TestElement] { map { TestElement(key: $0.key, value: $0.value) } }
}

/// Splits sorted elements into per-day sections.
func groupedByDay(_ elements: [TestElement]) -> [[TestElement]] {
    var sections: [[TestElement]] = []
    for element in elements {
        if let last = sections.last?.last, last.key.day == element.key.day {
            sections[sections.count - 1].append(element)
        } else {
            sections.append([element])
        }
    }
    return sections
}
