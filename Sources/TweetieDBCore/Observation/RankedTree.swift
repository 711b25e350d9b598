/// A persistent, sorted key–value collection with O(log n) access by key *and* by position.
///
/// `RankedTree` is an order-statistic B+tree (fan-out 64) whose nodes carry subtree element
/// counts. It has value semantics with structural sharing: copying a tree is O(1), and mutating
/// a copy duplicates only the nodes on the touched root-to-leaf path (copy-on-write checked with
/// `isKnownUniquelyReferenced`). Live queries keep their results in a `RankedTree` and hand out
/// each new version without an O(n) copy.
///
/// Keys are unique. ``insert(_:for:)`` replaces the value when the key already exists.
///
/// ```swift
/// var tree = RankedTree<Int, String>()
/// tree.insert("b", for: 20)
/// tree.insert("a", for: 10)
/// let snapshot = tree           // O(1)
/// tree.remove(10)
/// print(snapshot[0].value)      // "a" – the snapshot is unaffected
/// print(tree.index(of: 20)!)    // 0
/// ```
public struct RankedTree<Key: Comparable, Value> {
    /// The root node; an empty tree has an empty leaf root.
    var root: RankedTreeNode<Key, Value>

    /// Creates an empty tree.
    ///
    /// ```swift
    /// let tree = RankedTree<String, Int>()
    /// print(tree.isEmpty) // true
    /// ```
    public init() {
        root = RankedTreeNode(leafKeys: [], values: [])
    }

    /// Builds a tree in O(n) from elements whose keys are strictly ascending.
    ///
    /// - Precondition: the keys are strictly ascending (checked, O(n)).
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a"), (key: 2, value: "b")])
    /// print(tree.count) // 2
    /// ```
    public init<Elements: Sequence>(sortedUniqueElements elements: Elements)
    where Elements.Element == (key: Key, value: Value) {
        var keys: [Key] = []
        var values: [Value] = []
        keys.reserveCapacity(elements.underestimatedCount)
        values.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            if let last = keys.last {
                precondition(
                    last < element.key,
                    "RankedTree(sortedUniqueElements:): key at offset \(keys.count) is not greater than the previous key; keys must be strictly ascending"
                )
            }
            keys.append(element.key)
            values.append(element.value)
        }
        guard keys.count > RankedTreeLayout.maxLeafCount else {
            root = RankedTreeNode(leafKeys: keys, values: values)
            return
        }
        var level: [RankedTreeNode<Key, Value>] = []
        for range in Self.evenChunks(count: keys.count, target: RankedTreeLayout.bulkLeafFill) {
            level.append(RankedTreeNode(leafKeys: Array(keys[range]), values: Array(values[range])))
        }
        while level.count > 1 {
            var parents: [RankedTreeNode<Key, Value>] = []
            for range in Self.evenChunks(count: level.count, target: RankedTreeLayout.bulkChildFill) {
                parents.append(RankedTreeNode(children: Array(level[range])))
            }
            level = parents
        }
        root = level[0]
    }

    /// Splits `0..<count` into `ceil(count / target)` ranges whose sizes differ by at most one.
    private static func evenChunks(count: Int, target: Int) -> [Range<Int>] {
        let chunkCount = (count + target - 1) / target
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(chunkCount)
        var start = 0
        for chunk in 0..<chunkCount {
            let end = count * (chunk + 1) / chunkCount
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// The number of elements, O(1).
    public var count: Int { root.count }

    /// Whether the tree has no elements, O(1).
    public var isEmpty: Bool { root.count == 0 }
}

extension RankedTree: Sendable where Key: Sendable, Value: Sendable {}
