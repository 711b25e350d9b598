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
@usableFromInline
package struct RankedTree<Key: Comparable, Value> {
    /// The root node; an empty tree has an empty leaf root.
    @usableFromInline var root: RankedTreeNode<Key, Value>

    /// Creates an empty tree.
    ///
    /// ```swift
    /// let tree = RankedTree<String, Int>()
    /// print(tree.isEmpty) // true
    /// ```
    @usableFromInline package init() {
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
    @usableFromInline package init<Elements: Sequence>(sortedUniqueElements elements: Elements)
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
        self.init(ascendingKeys: &keys, values: &values)
    }

    /// Builds a tree in O(n) from parallel arrays whose keys are strictly ascending, which the
    /// caller has checked (this does not). The elements are moved into the leaves (the arrays are
    /// left empty): when the arrays are uniquely referenced, no element is copied.
    /// Inlinable, so that a caller specialized for its key and value types (an observation's
    /// start) builds the tree at that speed.
    @inlinable
    init(ascendingKeys keys: inout [Key], values: inout [Value]) {
        guard keys.count > RankedTreeLayout.maxLeafCount else {
            root = RankedTreeNode(leafKeys: keys, values: values)
            keys = []
            values = []
            return
        }
        // The leaves are cut from the end, so that each element is moved out with `removeLast()`.
        var level: [RankedTreeNode<Key, Value>] = []
        for range in Self.evenChunks(count: keys.count, target: RankedTreeLayout.bulkLeafFill).reversed() {
            level.append(RankedTreeNode(leafKeys: Self.moveLast(range.count, from: &keys), values: Self.moveLast(range.count, from: &values)))
        }
        level.reverse()
        while level.count > 1 {
            var parents: [RankedTreeNode<Key, Value>] = []
            for range in Self.evenChunks(count: level.count, target: RankedTreeLayout.bulkChildFill) {
                parents.append(RankedTreeNode(children: Array(level[range])))
            }
            level = parents
        }
        root = level[0]
    }

    /// The last `count` elements of `array`, in order, moved out of it.
    @inlinable
    static func moveLast<Element>(_ count: Int, from array: inout [Element]) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            for offset in stride(from: count - 1, through: 0, by: -1) {
                (buffer.baseAddress! + offset).initialize(to: array.removeLast())
            }
            initialized = count
        }
    }

    /// Splits `0..<count` into `ceil(count / target)` ranges whose sizes differ by at most one.
    @usableFromInline
    static func evenChunks(count: Int, target: Int) -> [Range<Int>] {
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
    @usableFromInline package var count: Int { root.count }

    /// Whether the tree has no elements, O(1).
    @usableFromInline package var isEmpty: Bool { root.count == 0 }
}

extension RankedTree: Sendable where Key: Sendable, Value: Sendable {}
