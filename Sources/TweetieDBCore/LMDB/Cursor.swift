/// A position in a database's sorted keys, for ordered, reverse, range and prefix iteration.
///
/// Entries are zero-copy views into the memory map, valid until the transaction ends; copy them
/// (`Array(key)`) to keep them. A cursor belongs to its transaction and must not outlive it.
///
/// ```swift
/// let cursor = try tx.cursor(on: tweets)
/// defer { cursor.close() }
/// var entry = try cursor.seek(atLeast: [0x10])
/// while let (key, value) = entry { …; entry = try cursor.next() }
/// ```
@usableFromInline final class Cursor {
    let handle: LMDB.CursorHandle
    let context: TransactionContext
    let database: Database
    private var isClosed = false

    init(handle: LMDB.CursorHandle, context: TransactionContext, database: Database) {
        self.handle = handle
        self.context = context
        self.database = database
    }

    deinit { close() }

    /// One entry: the key and value bytes, valid until the transaction ends.
    ///
    /// ```swift
    /// if let (key, value) = try cursor.first() { print(Array(key), value.count) }
    /// ```
    @usableFromInline typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    /// Closes the cursor (`mdb_cursor_close`). Read cursors must be closed before their transaction
    /// ends; ``ReadableTransaction/forEach(in:range:reverse:_:)`` does it for you.
    ///
    /// ```swift
    /// cursor.close()
    /// ```
    @usableFromInline func close() {
        guard !isClosed else { return }
        isClosed = true
        // A write transaction frees its cursors when it ends; a read cursor must always be closed.
        if context.isLive || !context.isWrite { LMDB.closeCursor(handle) }
    }

    private func move(_ op: LMDB.CursorOperation, key: UnsafeRawBufferPointer? = nil) throws -> Entry? {
        try context.checkLive("mdb_cursor_get")
        guard !isClosed else {
            throw StoreError(.invalidArgument, operation: "mdb_cursor_get", database: database.name, path: context.environment.path, message: "the cursor is closed")
        }
        let (code, k, v) = LMDB.cursorGet(handle, op, key: key)
        if code == LMDB.notFound { return nil }
        try LMDB.check(code, "mdb_cursor_get", database: database.name, path: context.environment.path)
        return (k, v)
    }

    /// Moves to the first (smallest) key.
    ///
    /// ```swift
    /// let smallest = try cursor.first()
    /// ```
    @usableFromInline func first() throws -> Entry? { try move(.first) }
    /// Moves to the last (largest) key.
    ///
    /// ```swift
    /// let largest = try cursor.last()
    /// ```
    @usableFromInline func last() throws -> Entry? { try move(.last) }
    /// Moves to the next key.
    ///
    /// ```swift
    /// let following = try cursor.next()
    /// ```
    @usableFromInline func next() throws -> Entry? { try move(.next) }
    /// Moves to the previous key.
    ///
    /// ```swift
    /// let preceding = try cursor.previous()
    /// ```
    @usableFromInline func previous() throws -> Entry? { try move(.previous) }

    /// Moves to the first key greater than or equal to `key` (`MDB_SET_RANGE`).
    ///
    /// ```swift
    /// let entry = try cursor.seek(atLeast: [0x00, 0x10])
    /// ```
    @usableFromInline func seek(atLeast key: [UInt8]) throws -> Entry? {
        try key.withUnsafeBytes { try move(.setRange, key: $0) }
    }

    /// Moves to exactly `key` (`MDB_SET_KEY`), or returns `nil` when it is absent.
    ///
    /// ```swift
    /// let entry = try cursor.seek(exactly: key)
    /// ```
    @usableFromInline func seek(exactly key: [UInt8]) throws -> Entry? {
        try key.withUnsafeBytes { try move(.setKey, key: $0) }
    }

    /// The value stored for exactly `key` (`MDB_SET_KEY`), zero-copy, or `nil`. For lookups in
    /// nearly sorted order: when `key` falls within the cursor's current leaf page, LMDB searches
    /// that page only instead of descending the tree from the root again.
    @usableFromInline
    func value(forRawKey key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        try move(.setKey, key: key)?.value
    }

    /// Deletes the entry at the cursor (write transactions only; throws in a read transaction).
    ///
    /// ```swift
    /// try cursor.deleteCurrent()
    /// ```
    @usableFromInline func deleteCurrent() throws {
        try context.checkLive("mdb_cursor_del")
        guard context.isWrite else {
            throw StoreError(.invalidArgument, operation: "mdb_cursor_del", database: database.name, path: context.environment.path,
                                message: "cannot delete through a cursor of a read-only transaction")
        }
        let code = LMDB.cursorDelete(handle)
        if code == LMDB.mapFull { context.sawMapFull = true }
        try LMDB.check(code, "mdb_cursor_del", database: database.name, path: context.environment.path)
    }

    /// Positions the cursor on the first entry of `range` in the given direction.
    func position(at range: KeyRange, reverse: Bool) throws -> Entry? {
        if !reverse {
            guard let lower = range.lowerBound else { return try first() }
            return try seek(atLeast: lower)
        }
        guard let upper = range.upperBoundExclusive else { return try last() }
        // Reverse: the last key strictly below the exclusive upper bound.
        if try seek(atLeast: upper) != nil { return try previous() }
        return try last()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
