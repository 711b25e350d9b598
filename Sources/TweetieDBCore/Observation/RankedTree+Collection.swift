extension RankedTree: RandomAccessCollection {
    /// The position of the first element (always 0).
    @usableFromInline package var startIndex: Int { 0 }

    /// One past the last position (equal to ``count``).
    @usableFromInline package var endIndex: Int { root.count }

    /// The position after `index`.
    @usableFromInline package func index(after index: Int) -> Int { index + 1 }

    /// The position before `index`.
    @usableFromInline package func index(before index: Int) -> Int { index - 1 }

    /// An iterator that walks the leaves directly: O(1) amortized per element,
    /// O(log n) to start.
    ///
    /// ```swift
    /// for (key, value) in RankedTree(sortedUniqueElements: [(key: 1, value: "a")]) {
    ///     print(key, value)
    /// }
    /// ```
    @usableFromInline package func makeIterator() -> Iterator {
        Iterator(root: root, start: 0, count: count)
    }

    /// The elements at positions `range`, iterated in O(log n + range.count).
    ///
    /// - Precondition: `range` lies within `0...count`.
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: (0..<100).map { (key: $0, value: $0 * 2) })
    /// for element in tree.elements(in: 10..<13) { print(element.value) } // 20 22 24
    /// ```
    @usableFromInline package func elements(in range: Range<Int>) -> ElementSequence {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= count,
            "RankedTree.elements(in:): range \(range) is out of bounds 0..<\(count)"
        )
        return ElementSequence(root: root, range: range)
    }

    /// A lazily iterated run of consecutive elements of a ``RankedTree``.
    ///
    /// ```swift
    /// let tree = RankedTree(sortedUniqueElements: [(key: 1, value: "a"), (key: 2, value: "b")])
    /// print(Array(tree.elements(in: 1..<2)).map(\.value)) // ["b"]
    /// ```
    @usableFromInline package struct ElementSequence: Sequence {
        let root: RankedTreeNode<Key, Value>
        /// The positions covered.
        @usableFromInline package let range: Range<Int>

        /// The number of elements, exactly.
        @usableFromInline package var underestimatedCount: Int { range.count }

        /// An iterator positioned at the start of ``range``.
        ///
        /// ```swift
        /// var iterator = RankedTree<Int, Int>().elements(in: 0..<0).makeIterator()
        /// print(iterator.next() == nil) // true
        /// ```
        @usableFromInline package func makeIterator() -> Iterator {
            Iterator(root: root, start: range.lowerBound, count: range.count)
        }
    }

    /// Iterates consecutive elements of a ``RankedTree`` leaf by leaf.
    ///
    /// ```swift
    /// var iterator = RankedTree(sortedUniqueElements: [(key: 1, value: "a")]).makeIterator()
    /// print(iterator.next()!.key) // 1
    /// ```
    @usableFromInline package struct Iterator: IteratorProtocol {
        /// Internal nodes from the root down to the current leaf, with the child being visited.
        private var path: [(node: RankedTreeNode<Key, Value>, slot: Int)] = []
        private var leaf: RankedTreeNode<Key, Value> {
            didSet {
                leafKeys = leaf.keys
                leafValues = leaf.values
            }
        }
        /// The current leaf's arrays, read once per leaf rather than once per element.
        private var leafKeys: [Key]
        private var leafValues: [Value]
        private var offset: Int
        private var remaining: Int

        init(root: RankedTreeNode<Key, Value>, start: Int, count: Int) {
            var node = root
            var position = start
            remaining = count
            while !node.isLeaf {
                var slot = 0
                // Stay in the last child for an end position instead of running off the end.
                while slot < node.children.count - 1 && position >= node.childCounts[slot] {
                    position -= node.childCounts[slot]
                    slot += 1
                }
                path.append((node, slot))
                node = node.children[slot]
            }
            leaf = node
            leafKeys = node.keys
            leafValues = node.values
            offset = position
        }

        /// The next element, or `nil` after the last one.
        ///
        /// ```swift
        /// var iterator = RankedTree<Int, Int>().makeIterator()
        /// print(iterator.next() == nil) // true
        /// ```
        @usableFromInline package mutating func next() -> (key: Key, value: Value)? {
            guard remaining > 0 else { return nil }
            if offset == leafKeys.count { advanceToNextLeaf() }
            let element = (key: leafKeys[offset], value: leafValues[offset])
            offset += 1
            remaining -= 1
            return element
        }

        private mutating func advanceToNextLeaf() {
            while let (node, slot) = path.popLast() {
                guard slot + 1 < node.children.count else { continue }
                path.append((node, slot + 1))
                var child = node.children[slot + 1]
                while !child.isLeaf {
                    path.append((child, 0))
                    child = child.children[0]
                }
                leaf = child
                offset = 0
                return
            }
            preconditionFailure("RankedTree.Iterator: ran past the last leaf; the tree's counts are inconsistent")
        }
    }
}

extension RankedTree: Equatable where Value: Equatable {
    /// Whether both trees hold the same keys with equal values, O(n)
    /// (O(1) when they share their root).
    @usableFromInline package static func == (lhs: RankedTree, rhs: RankedTree) -> Bool {
        if lhs.root === rhs.root { return true }
        guard lhs.count == rhs.count else { return false }
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while let l = left.next(), let r = right.next() {
            if l.key != r.key || l.value != r.value { return false }
        }
        return true
    }
}

extension RankedTree: CustomStringConvertible {
    /// A short description: the element count and up to the first five keys.
    ///
    /// ```swift
    /// print(RankedTree(sortedUniqueElements: [(key: 1, value: "a")])) // RankedTree(count: 1, keys: [1])
    /// ```
    @usableFromInline package var description: String {
        let shown = elements(in: 0..<Swift.min(count, 5)).map { "\($0.key)" }
        let suffix = count > 5 ? ", …" : ""
        return "RankedTree(count: \(count), keys: [\(shown.joined(separator: ", "))\(suffix)])"
    }
}
