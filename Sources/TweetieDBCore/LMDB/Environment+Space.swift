extension Environment {
    /// The reader table's slots that have an owner (`mdb_reader_list`), from every process:
    /// live read transactions with their snapshot, idle slots kept by a process, and stale slots
    /// of dead processes until they are cleared.
    ///
    /// ```swift
    /// let oldest = env.readerSlots().compactMap(\.transactionID).min()
    /// ```
    func readerSlots() -> [Store.ReaderSlot] {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        guard !isClosed else { return [] }
        return LMDB.readerSlots(handle).map { Store.ReaderSlot(processID: $0.pid, thread: $0.thread, transactionID: $0.transactionID) }
    }

    /// Reads LMDB's free list (its database 0) in a short read transaction of its own.
    ///
    /// ```swift
    /// let free = try env.freeList()
    /// print("\(free.pageCount) free pages in \(free.records.count) records")
    /// ```
    func freeList() throws -> Store.FreeList {
        try withReadTransaction { tx in
            let (code, records) = LMDB.freeList(tx.handle)
            try LMDB.check(code, "mdb_cursor_get", database: "(free list)", path: path)
            return Store.FreeList(transactionID: tx.id, records: records.map { Store.FreeListRecord(transactionID: $0.transactionID, pageCount: $0.pages) })
        }
    }
}
