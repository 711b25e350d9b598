extension RankedTree {
    /// The element at `position` (0-based, in key order), O(log n).
    ///
    /// - Precondition: `0 <= position < count`.
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 5, value: "x")])
    /// print(tree[0].key) // 5
    /// ```
    @usableFromInline package subscript(position: Int) -> (key: Key, value: Value) {
        precondition(
            position >= 0 && position < count,
            "RankedTree subscript: position \(position) is out of bounds 0..<\(count)"
        )
        let (leaf, offset) = leafAndOffset(for: position)
        return (leaf.keys[offset], leaf.values[offset])
    }

    /// The leaf holding `position` and the offset inside it (`position < count`).
    func leafAndOffset(for position: Int) -> (leaf: RankedTreeNode<Key, Value>, offset: Int) {
        var node = root
        var remaining = position
        while !node.isLeaf {
            let childCounts = node.childCounts
            var slot = 0
            while remaining >= childCounts[slot] {
                remaining -= childCounts[slot]
                slot += 1
            }
            node = node.children[slot]
        }
        return (node, remaining)
    }

    /// The position of `key`, or `nil` when it is absent, O(log n).
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 1, value: ()), (key: 4, value: ())])
    /// print(tree.index(of: 4) as Any) // Optional(1)
    /// ```
    @usableFromInline package func index(of key: Key) -> Int? {
        var node = root
        var base = 0
        while !node.isLeaf {
            let slot = node.childSlot(for: key)
            if slot == 0 && key < node.keys[0] { return nil }
            base += node.elementsBefore(slot: slot)
            node = node.children[slot]
        }
        let position = node.lowerBound(key)
        guard position < node.keys.count && node.keys[position] == key else { return nil }
        return base + position
    }

    /// Whether `key` is present, O(log n).
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a")])
    /// print(tree.contains(1)) // true
    /// ```
    @usableFromInline package func contains(_ key: Key) -> Bool {
        value(for: key) != nil
    }

    /// The value stored for `key`, or `nil`, O(log n).
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a")])
    /// print(tree.value(for: 1) ?? "-") // "a"
    /// ```
    @usableFromInline package func value(for key: Key) -> Value? {
        var node = root
        while !node.isLeaf {
            let slot = node.childSlot(for: key)
            if slot == 0 && key < node.keys[0] { return nil }
            node = node.children[slot]
        }
        let position = node.lowerBound(key)
        guard position < node.keys.count && node.keys[position] == key else { return nil }
        return node.values[position]
    }

    /// The number of keys less than `key`: where `key` is, or would be inserted, O(log n).
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 10, value: ()), (key: 20, value: ())])
    /// print(tree.insertionIndex(for: 15)) // 1
    /// ```
    @usableFromInline package func insertionIndex(for key: Key) -> Int {
        var node = root
        var base = 0
        while !node.isLeaf {
            let slot = node.childSlot(for: key)
            base += node.elementsBefore(slot: slot)
            node = node.children[slot]
        }
        return base + node.lowerBound(key)
    }

    /// The first position whose key satisfies `isInSecondPart`, or `count` when none does, O(log n).
    ///
    /// The predicate must be monotone in key order: `false` for a prefix of the keys and `true`
    /// for the rest. Sectioned results use it to find where a section starts.
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 3, value: ()), (key: 8, value: ())])
    /// print(tree.partitionIndex { $0 >= 5 }) // 1
    /// ```
    @usableFromInline package func partitionIndex(where isInSecondPart: (Key) throws -> Bool) rethrows -> Int {
        var node = root
        var base = 0
        while !node.isLeaf {
            // The last child whose minimum key is still in the first part holds the boundary.
            let keys = node.keys
            var low = 0
            var high = keys.count
            while low < high {
                let mid = (low + high) >> 1
                if try isInSecondPart(keys[mid]) { high = mid } else { low = mid + 1 }
            }
            if low == 0 { return base }
            base += node.elementsBefore(slot: low - 1)
            node = node.children[low - 1]
        }
        let keys = node.keys
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if try isInSecondPart(keys[mid]) { high = mid } else { low = mid + 1 }
        }
        return base + low
    }
}
