/// The results of an observed query at one moment: an immutable, random-access snapshot.
///
/// Backed by a persistent order-statistic tree, so each delivery hands out a new snapshot without
/// copying the rows (O(1)), and indexing is O(log n) even for a million rows.
///
/// ```swift
/// for try await change in store.observe(Query<Tweet>().sorted(byIndex: "created")) {
///     print(change.results.count, change.results.first?.text ?? "")
/// }
/// ```
public struct QueryResults<R: Record>: RandomAccessCollection, Sendable {
    let tree: RankedTree<EncodedKey, R>

    init(tree: RankedTree<EncodedKey, R>) { self.tree = tree }

    /// The position of the first record (always 0).
    ///
    /// ```swift
    /// let first = results[results.startIndex]
    /// ```
    public var startIndex: Int { 0 }
    /// One past the position of the last record (the count).
    public var endIndex: Int { tree.count }

    /// The record at `position`, in O(log n).
    ///
    /// ```swift
    /// let newest = results[0]
    /// ```
    public subscript(position: Int) -> R { tree[position].value }

    /// An iterator over the records in order (O(1) per step).
    ///
    /// ```swift
    /// for tweet in results { print(tweet.text) }
    /// ```
    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator()) }

    /// Iterates the records in order.
    ///
    /// ```swift
    /// var it = results.makeIterator(); while let tweet = it.next() { … }
    /// ```
    public struct Iterator: IteratorProtocol {
        var base: RankedTree<EncodedKey, R>.Iterator
        /// The next record, or `nil` at the end.
        ///
        /// ```swift
        /// let next = iterator.next()
        /// ```
        public mutating func next() -> R? { base.next()?.value }
    }
}

/// The key of a row in sectioned results: its section, then its position within the query's sort.
struct SectionedRowKey<S: Hashable & Comparable & Sendable>: Comparable, Hashable, Sendable {
    var section: S
    var sectionsDescending: Bool
    var row: EncodedKey

    static func < (lhs: SectionedRowKey, rhs: SectionedRowKey) -> Bool {
        if lhs.section != rhs.section {
            return lhs.sectionsDescending ? lhs.section > rhs.section : lhs.section < rhs.section
        }
        return lhs.row < rhs.row
    }
}

/// A section key ordered by its key, ascending or descending.
struct OrderedSection<S: Hashable & Comparable & Sendable>: Comparable, Hashable, Sendable {
    var key: S
    var descending: Bool
    static func < (lhs: OrderedSection, rhs: OrderedSection) -> Bool {
        lhs.descending ? lhs.key > rhs.key : lhs.key < rhs.key
    }
}

/// The results of a sectioned observation: sections ordered by their key, rows ordered by the
/// query's sort inside each section.
///
/// ```swift
/// for try await change in store.observe(query, sectionedBy: { Day($0.created) }, sectionOrder: .descending) {
///     for section in 0..<change.results.numberOfSections {
///         print(change.results.sectionKey(at: section), change.results.numberOfRows(inSection: section))
///     }
/// }
/// ```
public struct SectionedQueryResults<S: Hashable & Comparable & Sendable, R: Record>: Sendable {
    let base: SectionedResults<OrderedSection<S>, SectionedRowKey<S>, R>

    /// The number of sections.
    public var numberOfSections: Int { base.numberOfSections }

    /// The number of rows of section `section`.
    public func numberOfRows(inSection section: Int) -> Int { base.numberOfRows(inSection: section) }

    /// The key of section `section`.
    public func sectionKey(at section: Int) -> S { base.sectionKey(at: section).key }

    /// The record at `indexPath`.
    ///
    /// ```swift
    /// let tweet = results[IndexPath(section: 0, row: 0)]
    /// ```
    public subscript(indexPath: IndexPath) -> R { base[indexPath].value }

    /// The records of section `section`, in order.
    ///
    /// ```swift
    /// for tweet in results.rows(inSection: 0) { print(tweet.text) }
    /// ```
    public func rows(inSection section: Int) -> [R] { base.rows(inSection: section).map(\.value) }

    /// Every section with its rows, as arrays.
    ///
    /// ```swift
    /// for (day, tweets) in results.sections { print(day, tweets.count) }
    /// ```
    public var sections: [(key: S, rows: [R])] {
        let arrays = base.sectionArrays()
        return arrays.enumerated().map { (sectionKey(at: $0.offset), $0.element.map(\.value)) }
    }

    /// The total number of rows.
    public var rowCount: Int { base.rows.count }
}
