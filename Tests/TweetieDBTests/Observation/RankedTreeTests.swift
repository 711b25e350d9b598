import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("RankedTree")
struct RankedTreeTests {
    /// Checks every read API of `tree` against the sorted `model`.
    private func expectMatches(_ tree: RankedTree<Int, Int>, _ model: [(key: Int, value: Int)], _ context: String) {
        #expect(tree.invariantViolation() == nil, "\(context): \(tree.invariantViolation() ?? "")")
        #expect(tree.count == model.count, "\(context)")
        let contents = Array(tree)
        #expect(contents.map(\.key) == model.map(\.key), "\(context)")
        #expect(contents.map(\.value) == model.map(\.value), "\(context)")
    }

    @Test("random operations agree with a sorted array model")
    func randomOperations() {
        for seed in UInt64(1)...12 {
            var rng = SeededRandom(seed: seed)
            var tree = RankedTree<Int, Int>()
            var model: [(key: Int, value: Int)] = []
            let keySpace = seed % 2 == 0 ? 600 : 20_000
            for step in 0..<6_000 {
                let key = Int.random(in: 0..<keySpace, using: &rng)
                let modelIndex = model.firstIndex { $0.key >= key } ?? model.count
                let present = modelIndex < model.count && model[modelIndex].key == key
                // Grow during the first half, shrink during the second to exercise merges.
                let growing = step < 3_000
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5 where growing, 0..<2:
                    let value = Int.random(in: 0..<1_000, using: &rng)
                    let index = tree.insert(value, for: key)
                    #expect(index == modelIndex)
                    if present { model[modelIndex].value = value } else { model.insert((key, value), at: modelIndex) }
                case 5..<7:
                    let value = Int.random(in: 0..<1_000, using: &rng)
                    let index = tree.updateValue(value, for: key)
                    #expect(index == (present ? modelIndex : nil))
                    if present { model[modelIndex].value = value }
                default:
                    let removed = tree.remove(key)
                    if present {
                        #expect(removed?.index == modelIndex)
                        #expect(removed?.value == model[modelIndex].value)
                        model.remove(at: modelIndex)
                    } else {
                        #expect(removed == nil)
                    }
                }
                #expect(tree.index(of: key) == (tree.contains(key) ? tree.insertionIndex(for: key) : nil))
                if step % 500 == 0 || step == 5_999 {
                    expectMatches(tree, model, "seed \(seed) step \(step)")
                }
                if !model.isEmpty && step % 7 == 0 {
                    let position = Int.random(in: 0..<model.count, using: &rng)
                    #expect(tree[position].key == model[position].key)
                    #expect(tree[position].value == model[position].value)
                    #expect(tree.index(of: model[position].key) == position)
                    #expect(tree.value(for: model[position].key) == model[position].value)
                }
            }
        }
    }

    @Test("large trees grow to several levels and shrink back to a leaf")
    func growAndShrink() {
        var rng = SeededRandom(seed: 99)
        var keys = Array(0..<30_000)
        keys.shuffle(using: &rng)
        var tree = RankedTree<Int, Int>()
        for key in keys { tree.insert(key * 2, for: key) }
        #expect(tree.height >= 3)
        #expect(tree.invariantViolation() == nil)
        #expect(tree.count == 30_000)
        #expect(tree.elementsEqual(0..<30_000) { $0.key == $1 && $0.value == $1 * 2 })
        keys.shuffle(using: &rng)
        for (offset, key) in keys.enumerated() {
            #expect(tree.remove(key)?.value == key * 2)
            if offset % 3_000 == 0 { #expect(tree.invariantViolation() == nil) }
        }
        #expect(tree.isEmpty)
        #expect(tree.height == 1)
        #expect(tree.invariantViolation() == nil)
    }

    @Test("copies are unaffected by mutations of other copies")
    func persistence() {
        var rng = SeededRandom(seed: 5)
        var tree = RankedTree(sortedUniqueElements: (0..<5_000).map { (key: $0 * 3, value: $0) })
        var snapshots: [(RankedTree<Int, Int>, [(key: Int, value: Int)])] = []
        for round in 0..<20 {
            snapshots.append((tree, Array(tree)))
            for _ in 0..<50 {
                let key = Int.random(in: 0..<16_000, using: &rng)
                if Bool.random(using: &rng) { tree.insert(round, for: key) } else { tree.remove(key) }
            }
            tree.updateValue(-1, for: tree[0].key)
        }
        for (snapshot, contents) in snapshots {
            expectMatches(snapshot, contents, "snapshot")
        }
        // Node sharing: a copy mutated at one key shares almost every leaf.
        let original = tree
        var copy = tree
        copy.insert(7, for: -1)
        #expect(original.count + 1 == copy.count)
        #expect(original.root !== copy.root)
        #expect(original.root.children.last! === copy.root.children.last!)
    }

    @Test("bulk build, ranges, insertion index and partition index")
    func bulkAndQueries() {
        var rng = SeededRandom(seed: 11)
        for size in [0, 1, 63, 64, 65, 500, 3_073, 20_000] {
            let model = (0..<size).map { (key: $0 * 2 + 1, value: $0) }
            let tree = RankedTree(sortedUniqueElements: model)
            expectMatches(tree, model, "bulk \(size)")
            var inserted = RankedTree<Int, Int>()
            for element in model.shuffled(using: &rng) { inserted.insert(element.value, for: element.key) }
            #expect(inserted == tree)
            for _ in 0..<50 {
                let lower = Int.random(in: 0...size, using: &rng)
                let upper = Int.random(in: lower...size, using: &rng)
                #expect(tree.elements(in: lower..<upper).map(\.value) == Array(lower..<upper))
                let probe = Int.random(in: -2...(size * 2 + 2), using: &rng)
                let expected = model.firstIndex { $0.key >= probe } ?? size
                #expect(tree.insertionIndex(for: probe) == expected)
                #expect(tree.partitionIndex { $0 >= probe } == expected)
                #expect(tree.index(of: probe) == (probe % 2 != 0 && probe > 0 && probe < size * 2 ? expected : nil))
            }
        }
    }

    @Test("equality compares keys and values")
    func equality() {
        let a = RankedTree(sortedUniqueElements: [(key: 1, value: "a"), (key: 2, value: "b")])
        var b = a
        #expect(a == b)
        b.updateValue("c", for: 2)
        #expect(a != b)
        b.updateValue("b", for: 2)
        #expect(a == b)
        b.remove(1)
        #expect(a != b)
    }
}
