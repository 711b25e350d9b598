// RankedTreeNode, with RankedTreeLayout: the size limits of its nodes (two constants).

/// Size limits shared by every ``RankedTree`` node.
@usableFromInline
enum RankedTreeLayout {
    /// Maximum number of elements in a leaf.
    @usableFromInline static let maxLeafCount = 32
    /// Maximum number of children of an internal node.
    static let maxChildCount = 64
    /// Number of elements a bulk-built leaf is filled with (room is left for later inserts).
    @usableFromInline static let bulkLeafFill = 24
    /// Number of children a bulk-built internal node is filled with.
    @usableFromInline static let bulkChildFill = 48
    /// A non-root leaf holding fewer elements than this is merged or rebalanced with a sibling.
    static let minLeafCount = maxLeafCount / 4
    /// A non-root internal node with fewer children than this is merged or rebalanced.
    static let minChildCount = maxChildCount / 4
}

/// One node of a ``RankedTree``: a leaf holding sorted elements, or an internal node
/// holding children together with each child's minimum key.
///
/// Nodes are shared between tree copies. A node is only ever mutated while it is uniquely
/// referenced (checked with `isKnownUniquelyReferenced` on the path from the root), which
/// is what makes sharing them across copies — and across threads — safe.
@usableFromInline
final class RankedTreeNode<Key: Comparable, Value> {
    /// Leaf: the element keys, ascending. Internal: the minimum key of each child.
    var keys: [Key]
    /// Leaf: the element values, parallel to `keys`. Internal: empty.
    var values: [Value]
    /// Internal: the children, ascending. Leaf: empty.
    var children: [RankedTreeNode<Key, Value>]
    /// Internal: the element count of each child, parallel to `children` (kept here so that
    /// prefix sums do not touch the children's memory). Leaf: empty.
    var childCounts: [Int]
    /// Number of elements stored in this subtree.
    var count: Int
    /// Whether this node is a leaf.
    let isLeaf: Bool

    /// Creates a leaf from parallel, ascending key and value arrays.
    @usableFromInline
    init(leafKeys: [Key], values: [Value]) {
        self.keys = leafKeys
        self.values = values
        self.children = []
        self.childCounts = []
        self.count = leafKeys.count
        self.isLeaf = true
    }

    /// Creates an internal node from non-empty children in ascending order.
    @usableFromInline
    init(children: [RankedTreeNode<Key, Value>]) {
        self.keys = children.map { $0.keys[0] }
        self.values = []
        self.children = children
        self.childCounts = children.map(\.count)
        var total = 0
        for childCount in childCounts { total += childCount }
        self.count = total
        self.isLeaf = false
    }

    private init(copying node: RankedTreeNode<Key, Value>) {
        self.keys = node.keys
        self.values = node.values
        self.children = node.children
        self.childCounts = node.childCounts
        self.count = node.count
        self.isLeaf = node.isLeaf
    }

    /// A shallow copy: the arrays are shared copy-on-write, the children are shared.
    func copy() -> RankedTreeNode<Key, Value> {
        RankedTreeNode(copying: self)
    }

    /// Number of entries in this node: elements for a leaf, children for an internal node.
    var width: Int { isLeaf ? keys.count : children.count }

    /// Whether this (non-root) node holds too few entries and must be rebalanced.
    var isUnderfull: Bool {
        isLeaf ? keys.count < RankedTreeLayout.minLeafCount : children.count < RankedTreeLayout.minChildCount
    }

    // MARK: Searching inside one node

    /// First position in `keys` whose key is not less than `key`.
    func lowerBound(_ key: Key) -> Int {
        let keys = self.keys  // one exclusivity-checked access instead of one per probe
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Internal nodes: the child whose key range would contain `key`
    /// (the last child whose minimum key is `<= key`, or the first child).
    func childSlot(for key: Key) -> Int {
        let keys = self.keys
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] <= key { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : low - 1
    }

    /// Internal nodes: total element count of the children before `slot`.
    func elementsBefore(slot: Int) -> Int {
        let childCounts = self.childCounts
        var total = 0
        var index = 0
        while index < slot {
            total += childCounts[index]
            index += 1
        }
        return total
    }

    // MARK: Mutation (the receiver must be uniquely referenced)

    /// Replaces child `slot` by a private copy unless it is already uniquely referenced.
    func makeChildUnique(_ slot: Int) {
        if !isKnownUniquelyReferenced(&children[slot]) {
            children[slot] = children[slot].copy()
        }
    }

    /// Inserts `value` for `key` into this subtree.
    ///
    /// - Returns: the element's index within this subtree, whether a new element was added
    ///   (`false` when the key already existed), and the new right sibling if this node split.
    func insert(
        _ value: Value, for key: Key, replacingExisting: Bool
    ) -> (index: Int, inserted: Bool, split: RankedTreeNode<Key, Value>?) {
        if isLeaf {
            let position = lowerBound(key)
            if position < keys.count && keys[position] == key {
                if replacingExisting { values[position] = value }
                return (position, false, nil)
            }
            keys.insert(key, at: position)
            values.insert(value, at: position)
            count += 1
            let split = keys.count > RankedTreeLayout.maxLeafCount ? splitOff() : nil
            return (position, true, split)
        }
        let slot = childSlot(for: key)
        makeChildUnique(slot)
        let child = children[slot]
        let result = child.insert(value, for: key, replacingExisting: replacingExisting)
        keys[slot] = child.keys[0]
        childCounts[slot] = child.count
        if let newSibling = result.split {
            children.insert(newSibling, at: slot + 1)
            childCounts.insert(newSibling.count, at: slot + 1)
            keys.insert(newSibling.keys[0], at: slot + 1)
        }
        if result.inserted { count += 1 }
        let index = elementsBefore(slot: slot) + result.index
        let split = children.count > RankedTreeLayout.maxChildCount ? splitOff() : nil
        return (index, result.inserted, split)
    }

    /// Moves the upper half of this node's entries into a new right sibling and returns it.
    private func splitOff() -> RankedTreeNode<Key, Value> {
        let middle = width / 2
        let sibling: RankedTreeNode<Key, Value>
        if isLeaf {
            sibling = RankedTreeNode(leafKeys: Array(keys[middle...]), values: Array(values[middle...]))
            values.removeSubrange(middle...)
        } else {
            sibling = RankedTreeNode(children: Array(children[middle...]))
            children.removeSubrange(middle...)
            childCounts.removeSubrange(middle...)
        }
        keys.removeSubrange(middle...)
        count -= sibling.count
        return sibling
    }

    /// Removes `key` from this subtree.
    ///
    /// - Returns: the removed element's index within this subtree and its value,
    ///   or `nil` when the key is absent (the subtree is then unchanged).
    func remove(_ key: Key) -> (index: Int, value: Value)? {
        if isLeaf {
            let position = lowerBound(key)
            guard position < keys.count && keys[position] == key else { return nil }
            keys.remove(at: position)
            let value = values.remove(at: position)
            count -= 1
            return (position, value)
        }
        let slot = childSlot(for: key)
        makeChildUnique(slot)
        guard let removed = children[slot].remove(key) else { return nil }
        count -= 1
        childCounts[slot] -= 1
        let index = elementsBefore(slot: slot) + removed.index
        if children[slot].isUnderfull && children.count > 1 {
            rebalance(slot)
        } else {
            keys[slot] = children[slot].keys[0]
        }
        return (index, removed.value)
    }

    /// Merges child `slot` with a neighbour, or spreads both evenly when they do not fit in one node.
    /// Fresh nodes are created, so the neighbour need not be uniquely referenced.
    private func rebalance(_ slot: Int) {
        let left = slot > 0 ? slot - 1 : slot
        let first = children[left]
        let second = children[left + 1]
        var replacements: [RankedTreeNode<Key, Value>] = []
        if first.isLeaf {
            let allKeys = first.keys + second.keys
            let allValues = first.values + second.values
            if allKeys.count <= RankedTreeLayout.maxLeafCount {
                replacements = [RankedTreeNode(leafKeys: allKeys, values: allValues)]
            } else {
                let middle = allKeys.count / 2
                replacements = [
                    RankedTreeNode(leafKeys: Array(allKeys[..<middle]), values: Array(allValues[..<middle])),
                    RankedTreeNode(leafKeys: Array(allKeys[middle...]), values: Array(allValues[middle...])),
                ]
            }
        } else {
            let allChildren = first.children + second.children
            if allChildren.count <= RankedTreeLayout.maxChildCount {
                replacements = [RankedTreeNode(children: allChildren)]
            } else {
                let middle = allChildren.count / 2
                replacements = [
                    RankedTreeNode(children: Array(allChildren[..<middle])),
                    RankedTreeNode(children: Array(allChildren[middle...])),
                ]
            }
        }
        children.replaceSubrange(left...(left + 1), with: replacements)
        childCounts.replaceSubrange(left...(left + 1), with: replacements.map(\.count))
        keys.replaceSubrange(left...(left + 1), with: replacements.map { $0.keys[0] })
    }
}

extension RankedTreeNode: @unchecked Sendable where Key: Sendable, Value: Sendable {}
