extension RankedTree {
    /// Checks the structural invariants (sorted keys, correct minimum keys and subtree counts,
    /// node sizes, equal leaf depth) and returns a description of the first violation, if any.
    /// O(n); used by tests.
    func invariantViolation() -> String? {
        var leafDepth: Int?
        func check(_ node: RankedTreeNode<Key, Value>, depth: Int, isRoot: Bool, lowerBound: Key?) -> String? {
            if node.isLeaf {
                if let expected = leafDepth, expected != depth { return "leaves at depths \(expected) and \(depth)" }
                leafDepth = depth
                if node.keys.count != node.values.count { return "leaf keys/values differ in length" }
                if node.count != node.keys.count { return "leaf count \(node.count) != \(node.keys.count)" }
                if node.keys.count > RankedTreeLayout.maxLeafCount { return "leaf overfull" }
                if !isRoot && node.isUnderfull { return "leaf underfull (\(node.keys.count))" }
                for index in node.keys.indices.dropFirst() where !(node.keys[index - 1] < node.keys[index]) {
                    return "leaf keys not ascending"
                }
                if let bound = lowerBound, let first = node.keys.first, first < bound { return "leaf key below separator" }
                return nil
            }
            if node.children.count != node.keys.count || node.childCounts.count != node.keys.count {
                return "internal keys/children/counts differ in length"
            }
            if node.children.count > RankedTreeLayout.maxChildCount { return "internal node overfull" }
            if !isRoot && node.isUnderfull { return "internal node underfull" }
            if isRoot && node.children.count < 2 { return "internal root with fewer than two children" }
            var total = 0
            for (slot, child) in node.children.enumerated() {
                if child.count == 0 { return "empty child" }
                if node.childCounts[slot] != child.count { return "cached child count is stale" }
                if node.keys[slot] != child.keys[0] { return "separator is not the child's minimum key" }
                if slot > 0, !(node.keys[slot - 1] < node.keys[slot]) { return "separators not ascending" }
                if let problem = check(child, depth: depth + 1, isRoot: false, lowerBound: node.keys[slot]) {
                    return problem
                }
                total += child.count
            }
            if total != node.count { return "internal count \(node.count) != sum \(total)" }
            return nil
        }
        return check(root, depth: 0, isRoot: true, lowerBound: nil)
    }

    /// The number of levels (1 for a single leaf).
    var height: Int {
        var levels = 1
        var node = root
        while !node.isLeaf {
            levels += 1
            node = node.children[0]
        }
        return levels
    }
}
