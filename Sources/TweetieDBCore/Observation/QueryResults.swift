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
