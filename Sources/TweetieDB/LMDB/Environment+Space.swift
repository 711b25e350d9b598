/// One slot of LMDB's reader table, shared by every process that has the environment open.
///
/// A slot with a ``transactionID`` is a live read transaction: it holds that snapshot, and LMDB
/// cannot reuse pages freed by any later transaction until it ends.
///
/// ```swift
/// for slot in env.readerSlots() where slot.transactionID != nil { print(slot.processID) }
/// ```
public struct ReaderSlot: Sendable, Hashable, Codable {
    /// The process that owns the slot.
    ///
    /// ```swift
    /// print(slot.processID)
    /// ```
    public var processID: Int32
    /// The owning thread (`pthread_t`, as LMDB records it).
    ///
    /// ```swift
    /// print(String(slot.thread, radix: 16))
    /// ```
    public var thread: UInt64
    /// The snapshot the slot's read transaction holds, or `nil` when no read transaction is open in it.
    ///
    /// ```swift
    /// if let held = slot.transactionID { print("holds snapshot", held) }
    /// ```
    public var transactionID: Int?

    /// A slot as the reader table reports it.
    ///
    /// ```swift
    /// let slot = ReaderSlot(processID: 42, thread: 0x7f00, transactionID: 1_234)
    /// ```
    public init(processID: Int32, thread: UInt64, transactionID: Int?) {
        self.processID = processID
        self.thread = thread
        self.transactionID = transactionID
    }
}

/// One record of LMDB's free list: the pages one write transaction freed.
///
/// ```swift
/// let pages = try env.freeList().records.map(\.pageCount)
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

/// LMDB's free list in one snapshot: the pages of `data.mdb` that hold no live data.
///
/// A writer reuses a record's pages only when every open read transaction is newer than the
/// record's transaction; pages freed later stay *pinned* by the oldest reader, and when a writer
/// needs more pages than the reusable ones, the file grows.
///
/// ```swift
/// let free = try env.freeList()
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

extension Environment {
    /// The reader table's slots that have an owner (`mdb_reader_list`), from every process:
    /// live read transactions with their snapshot, idle slots kept by a process, and stale slots
    /// of dead processes until they are cleared.
    ///
    /// ```swift
    /// let oldest = env.readerSlots().compactMap(\.transactionID).min()
    /// ```
    public func readerSlots() -> [ReaderSlot] {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        guard !isClosed else { return [] }
        return LMDB.readerSlots(handle).map { ReaderSlot(processID: $0.pid, thread: $0.thread, transactionID: $0.transactionID) }
    }

    /// Reads LMDB's free list (its database 0) in a short read transaction of its own.
    ///
    /// ```swift
    /// let free = try env.freeList()
    /// print("\(free.pageCount) free pages in \(free.records.count) records")
    /// ```
    public func freeList() throws -> FreeList {
        try withReadTransaction { tx in
            let (code, records) = LMDB.freeList(tx.handle)
            try LMDB.check(code, "mdb_cursor_get", database: "(free list)", path: path)
            return FreeList(transactionID: tx.id, records: records.map { FreeListRecord(transactionID: $0.transactionID, pageCount: $0.pages) })
        }
    }
}
