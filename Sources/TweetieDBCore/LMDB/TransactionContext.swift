/// The state shared by a transaction value and the environment that runs it (opaque).
///
/// ```swift
/// // Not used directly: it is what a ReadTransaction or WriteTransaction stands on.
/// ```
@usableFromInline final class TransactionContext {
    unowned let environment: Environment
    let handle: LMDB.TransactionHandle
    let isWrite: Bool
    /// Cleared when the transaction commits or aborts: later use throws instead of touching freed memory.
    var isLive = true
    /// Set when LMDB reported `MDB_MAP_FULL`; the environment then grows the map and retries.
    var sawMapFull = false
    /// A write transaction's cursor per database for the store's puts, indexed by DBI and opened
    /// on first use. LMDB closes a write transaction's cursors when it ends. (Only the
    /// transaction's own thread touches this and ``appendPauses``: no runtime exclusivity checks.)
    @exclusivity(unchecked) private var putCursors: [LMDB.CursorHandle?] = []
    /// Per DBI, whether inserts try `MDB_APPEND` first; see ``appendIfLast(_:dbi:key:value:)``.
    @exclusivity(unchecked) private var appendPauses: [AppendPause] = []

    /// How long appending stays paused in one database after a key did not come last.
    struct AppendPause {
        /// Inserts left before `MDB_APPEND` is tried again (0: try it now).
        var remaining: UInt32 = 0
        /// The pause the next miss starts: it doubles with each miss in a row, up to 4,096.
        var next: UInt32 = 8
    }

    init(environment: Environment, handle: LMDB.TransactionHandle, isWrite: Bool) {
        self.environment = environment
        self.handle = handle
        self.isWrite = isWrite
    }

    /// The put cursor of `database` in this write transaction. A cursor that stays positioned
    /// where it last wrote lets LMDB insert a key that belongs on the same leaf page, or after
    /// the last key, without descending the tree again: bulk inserts in key order cost one page
    /// search each instead of one tree search each. (`mdb_put` opens a fresh cursor every call.)
    @inline(__always)
    func putCursor(_ database: Database) throws -> LMDB.CursorHandle {
        let dbi = Int(database.dbi)
        if dbi < putCursors.count, let cursor = putCursors[dbi] {
            return cursor
        }
        return try openPutCursor(database)
    }

    private func openPutCursor(_ database: Database) throws -> LMDB.CursorHandle {
        let (code, cursor) = LMDB.openCursor(handle, database.dbi)
        try LMDB.check(code, "mdb_cursor_open", database: database.name, path: environment.path)
        guard let cursor else {
            throw StoreError(.invalidArgument, operation: "mdb_cursor_open", database: database.name, path: environment.path,
                                message: "LMDB returned no cursor")
        }
        let dbi = Int(database.dbi)
        if putCursors.count <= dbi { putCursors.append(contentsOf: repeatElement(nil, count: dbi + 1 - putCursors.count)) }
        putCursors[dbi] = cursor
        return cursor
    }

    /// Inserts `key` with `MDB_APPEND` when it sorts after the database's last key, and returns
    /// the put's result code; returns `nil`, having written nothing, when it does not, so that the
    /// caller puts it the ordinary way.
    ///
    /// An append needs no search of the tree, and the page it splits stays full (an ordinary
    /// insert splits pages in half), so keys arriving in ascending order — ids in a bulk load,
    /// sorted index entries — cost less time and half the pages to commit. A miss costs a walk
    /// down the tree's right edge and one comparison; after one, appending pauses for a number of
    /// inserts that doubles with each further miss, so unordered keys pay almost nothing for it.
    @inline(__always)
    func appendIfLast(_ cursor: LMDB.CursorHandle, dbi: LMDB.DBI, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Int32? {
        let slot = Int(dbi)
        if slot >= appendPauses.count { appendPauses.append(contentsOf: repeatElement(AppendPause(), count: slot + 1 - appendPauses.count)) }
        if appendPauses[slot].remaining > 0 {
            appendPauses[slot].remaining -= 1
            return nil
        }
        let code = LMDB.put(cursor, key: key, value: value, flags: .append)
        if code == LMDB.keyExists {
            appendPauses[slot].remaining = appendPauses[slot].next
            appendPauses[slot].next = min(appendPauses[slot].next * 2, 4096)
            return nil
        }
        appendPauses[slot].next = 8
        return code
    }

    @inline(__always)
    func checkLive(_ operation: StaticString) throws(StoreError) {
        if !isLive {
            throw StoreError(.transactionEnded, operation: "\(operation)", path: environment.path,
                                message: "the transaction was used after its closure returned; do all work inside read { } or write { }")
        }
    }
}
