extension Store {
    /// LMDB's free list in one snapshot: the pages of `data.mdb` that hold no live data.
    ///
    /// A writer reuses a record's pages only when every open read transaction is newer than the
    /// record's transaction; pages freed later stay *pinned* by the oldest reader, and when a writer
    /// needs more pages than the reusable ones, the file grows.
    ///
    /// ```swift
    /// let free = try store.freeList()
    /// print(free.pageCount, free.pageCount(freedAtOrAfter: oldestReader))
    /// ```
    public struct FreeList: Sendable, Hashable, Codable {
        /// The snapshot the list was read in.
        ///
        /// ```swift
        /// print(free.transactionID)
        /// ```
        public var transactionID: Int
        /// The records, oldest transaction first.
        ///
        /// ```swift
        /// print(free.records.count)
        /// ```
        public var records: [FreeListRecord]

        /// Every free page.
        ///
        /// ```swift
        /// print(free.pageCount * env.info().pageSize, "bytes free")
        /// ```
        public var pageCount: Int { records.reduce(0) { $0 + $1.pageCount } }

        /// The free pages freed by transaction `transactionID` or later: the ones a reader holding
        /// snapshot `transactionID` keeps writers from reusing.
        ///
        /// ```swift
        /// let pinned = free.pageCount(freedAtOrAfter: oldestReaderSnapshot)
        /// ```
        public func pageCount(freedAtOrAfter transactionID: Int) -> Int {
            records.reduce(0) { $0 + ($1.transactionID >= transactionID ? $1.pageCount : 0) }
        }
    }


    /// One record of LMDB's free list: the pages one write transaction freed.
    ///
    /// ```swift
    /// let pages = try store.freeList().records.map(\.pageCount)
    /// ```
    public struct FreeListRecord: Sendable, Hashable, Codable {
        /// The write transaction that freed the pages (or, for pages a writer took out of the list
        /// and put back unused, an older id LMDB reuses as the key).
        ///
        /// ```swift
        /// print(record.transactionID)
        /// ```
        public var transactionID: Int
        /// How many pages the record holds.
        ///
        /// ```swift
        /// print(record.pageCount)
        /// ```
        public var pageCount: Int
    }
}
