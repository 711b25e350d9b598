/// The records matching a query as a lazy `Sequence`, read from a cursor as you iterate: for large
/// scans inside a transaction, without materializing an array.
///
/// Valid only inside the transaction that made it. When the query's order is not the order of a key
/// or index walk, the matching records are sorted in memory when iteration starts.
///
/// ```swift
/// try store.read { tx in
///     for tweet in try tx.records(Query<Tweet>().sorted(by: Tweet.byCreated)) where tweet.favoriteCount > 100 {
///         print(tweet.text)
///     }
/// }
/// ```
public struct QueryRecords<R: Record>: Sequence {
    let reader: any ReadableTransaction
    let query: Query<R>
    let scan: ScanPlan
    let descriptor: CollectionDescriptor
    let path: String
    let sorted: [R]?

    /// Iterates the records; errors stop the iteration and are available from ``Iterator/error``.
    ///
    /// ```swift
    /// var iterator = records.makeIterator()
    /// while let tweet = iterator.next() { … }
    /// if let error = iterator.error { throw error }
    /// ```
    public func makeIterator() -> Iterator { Iterator(self) }

    /// Reads one record at a time from the cursor.
    public struct Iterator: IteratorProtocol {
        private let base: QueryRecords
        private var cursor: Cursor?
        /// The records cursor of an index walk's lookups.
        private var lookup: Cursor?
        private var entry: Cursor.Entry?
        private var started = false
        private var skipped = 0
        private var delivered = 0
        private var sortedIterator: IndexingIterator<[R]>?
        /// Equal repeated strings of the iterated records share storage.
        private let sharing = SharedStringTable()
        /// The error that ended the iteration early, if any.
        ///
        /// ```swift
        /// if let error = iterator.error { print(error) }
        /// ```
        public private(set) var error: (any Error)?

        init(_ base: QueryRecords) {
            self.base = base
            sortedIterator = base.sorted?.makeIterator()
        }

        /// The next matching record, or `nil` at the end (or after an error).
        ///
        /// ```swift
        /// let next = iterator.next()
        /// ```
        public mutating func next() -> R? {
            if sortedIterator != nil { return sortedIterator!.next() }
            guard error == nil, delivered < (base.query.limitCount ?? Int.max) else { return finish() }
            do {
                if !started {
                    started = true
                    let cursor = try base.reader.cursor(on: base.scan.database)
                    self.cursor = cursor
                    lookup = try base.scan.lookupCursor(in: base.reader)
                    entry = try cursor.position(at: base.scan.range, reverse: base.scan.reverse)
                } else if let cursor {
                    entry = base.scan.reverse ? try cursor.previous() : try cursor.next()
                }
                while let (key, value) = entry, base.scan.range.contains(key) {
                    let record: R = try base.scan.record(key: key, value: value, lookup: lookup, descriptor: base.descriptor, path: base.path, sharing: sharing)
                    if base.query.predicates.allSatisfy({ $0(record) }) {
                        if skipped < base.query.offset {
                            skipped += 1
                        } else {
                            delivered += 1
                            return record
                        }
                    }
                    entry = base.scan.reverse ? try cursor!.previous() : try cursor!.next()
                }
                return finish()
            } catch {
                self.error = error
                return finish()
            }
        }

        private mutating func finish() -> R? {
            cursor?.close()
            cursor = nil
            lookup?.close()
            lookup = nil
            entry = nil
            return nil
        }
    }
}

extension StoreReading {
    /// The records matching `query` as a lazy sequence, valid inside this transaction.
    ///
    /// ```swift
    /// let longest = try tx.records(Query<Tweet>()).max { $0.text.count < $1.text.count }
    /// ```
    public func records<R: Record>(_ query: Query<R>) throws -> QueryRecords<R> {
        let descriptor = try store.descriptor(for: R.self)
        let scan = try ScanPlan.make(query, descriptor: descriptor)
        // An order that no key or index walk gives is sorted in memory, once.
        let sorted = scan.walkIsSorted ? nil : try fetch(query)
        return QueryRecords(reader: transaction, query: query, scan: scan, descriptor: descriptor, path: store.path, sorted: sorted)
    }
}
