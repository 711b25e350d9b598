extension RankedTree {
    /// Gives the tree a private root node unless it already has one.
    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
    }

    /// Inserts `value` for `key` and returns its position, O(log n).
    ///
    /// When `key` is already present its value is **replaced** and its (unchanged) position
    /// is returned; the count does not change.
    ///
    /// ```swift
    /// var tree = RankedTree<Int, String>()
    /// tree.insert("a", for: 7)
    /// print(tree.insert("b", for: 3)) // 0
    /// ```
    @discardableResult
    @usableFromInline package mutating func insert(_ value: Value, for key: Key) -> Int {
        insert(value, for: key, replacingExisting: true).index
    }

    /// Inserts only when `key` is absent; returns the new position, or `nil` (tree unchanged
    /// in content) when the key already exists.
    mutating func insertNew(_ value: Value, for key: Key) -> Int? {
        let result = insert(value, for: key, replacingExisting: false)
        return result.inserted ? result.index : nil
    }

    private mutating func insert(
        _ value: Value, for key: Key, replacingExisting: Bool
    ) -> (index: Int, inserted: Bool) {
        makeRootUnique()
        let result = root.insert(value, for: key, replacingExisting: replacingExisting)
        if let sibling = result.split {
            root = RankedTreeNode(children: [root, sibling])
        }
        return (result.index, result.inserted)
    }

    /// Replaces the value of an existing `key` and returns its position, or returns `nil`
    /// (without modifying anything) when the key is absent, O(log n).
    ///
    /// ```swift
    /// var tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a")])
    /// print(tree.updateValue("z", for: 1) as Any) // Optional(0)
    /// print(tree.updateValue("z", for: 2) as Any) // nil
    /// ```
    @discardableResult
    @usableFromInline package mutating func updateValue(_ value: Value, for key: Key) -> Int? {
        guard contains(key) else { return nil }
        return insert(value, for: key, replacingExisting: true).index
    }

    /// Replaces the value of a key known to be present, with a single descent.
    mutating func updateExistingValue(_ value: Value, for key: Key) {
        let result = insert(value, for: key, replacingExisting: true)
        precondition(!result.inserted, "RankedTree: key \(key) was expected to be present")
    }

    /// Removes `key` and returns its former position and value, or `nil` when absent, O(log n).
    ///
    /// ```swift
    /// var tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a"), (key: 2, value: "b")])
    /// print(tree.remove(2)!.index) // 1
    /// ```
    @discardableResult
    @usableFromInline package mutating func remove(_ key: Key) -> (index: Int, value: Value)? {
        guard contains(key) else { return nil }
        return removeExisting(key)
    }

    /// Removes a key known to be present (an absent key would needlessly copy the search path).
    @discardableResult
    mutating func removeExisting(_ key: Key) -> (index: Int, value: Value)? {
        makeRootUnique()
        let removed = root.remove(key)
        if !root.isLeaf && root.children.count == 1 {
            root = root.children[0]
        }
        return removed
    }
}
