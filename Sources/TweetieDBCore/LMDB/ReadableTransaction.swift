/// Operations available in every transaction, read-only or read-write.
///
/// ```swift
/// func count(in tx: some ReadableTransaction, _ db: Database) throws -> Int { try tx.stats(of: db).entries }
/// ```
@usableFromInline protocol ReadableTransaction {
    /// The transaction's shared state (internal).
    var context: TransactionContext { get }
}

extension ReadableTransaction {
    var handle: LMDB.TransactionHandle { context.handle }

    /// The id of this transaction's snapshot (`mdb_txn_id`).
    ///
    /// ```swift
    /// let id = try env.read { tx in tx.id }
    /// ```
    @usableFromInline var id: Int { LMDB.transactionID(context.handle) }

    /// Looks up `key` and passes the value to `body` without copying it.
    ///
    /// The buffer points into the memory map: it is valid only inside `body`.
    /// Returns `nil` when the key is absent.
    ///
    /// ```swift
    /// let length = try tx.withValue(for: key, in: tweets) { $0.count }
    /// ```
    @inlinable
    func withValue<R>(for key: [UInt8], in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try key.withUnsafeBytes { try withValue(forRawKey: $0, in: database, body) }
    }

    /// The value stored for a raw key, zero-copy (valid until the transaction ends), or `nil`.
    /// Non-generic, for the store's inlinable hot loops.
    @usableFromInline
    func rawValue(forRawKey key: UnsafeRawBufferPointer, in database: Database) throws -> UnsafeRawBufferPointer? {
        try context.checkLive("mdb_get")
        let (code, result) = try LMDB.get(handle, database.dbi, key: key) { $0 }
        if code == LMDB.notFound { return nil }
        try LMDB.check(code, "mdb_get", database: database.name, path: context.environment.path)
        return result
    }

    /// Looks up a raw key and passes the value to `body` without copying it.
    ///
    /// ```swift
    /// try key.withUnsafeBytes { k in try tx.withValue(forRawKey: k, in: tweets) { $0.count } }
    /// ```
    @usableFromInline func withValue<R>(forRawKey key: UnsafeRawBufferPointer, in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try context.checkLive("mdb_get")
        let (code, result) = try LMDB.get(handle, database.dbi, key: key, body)
        if code == LMDB.notFound { return nil }
        try LMDB.check(code, "mdb_get", database: database.name, path: context.environment.path)
        return result
    }

    /// Returns a copy of the value stored for `key`, or `nil`.
    ///
    /// ```swift
    /// let bytes: [UInt8]? = try tx.value(for: key, in: tweets)
    /// ```
    @usableFromInline func value(for key: [UInt8], in database: Database) throws -> [UInt8]? {
        try withValue(for: key, in: database) { Array($0) }
    }

    /// Whether `key` is present.
    ///
    /// ```swift
    /// if try tx.contains(key, in: tweets) { … }
    /// ```
    @usableFromInline func contains(_ key: [UInt8], in database: Database) throws -> Bool {
        try withValue(for: key, in: database) { _ in true } ?? false
    }

    /// Statistics of a database in this snapshot (`mdb_stat`).
    ///
    /// ```swift
    /// print(try tx.stats(of: tweets).entries)
    /// ```
    @usableFromInline func stats(of database: Database) throws -> DatabaseStats {
        try context.checkLive("mdb_stat")
        let raw = LMDB.stat(handle, database.dbi)
        try LMDB.check(raw.code, "mdb_stat", database: database.name, path: context.environment.path)
        return DatabaseStats(pageSize: raw.pageSize, depth: raw.depth, branchPages: raw.branchPages,
                             leafPages: raw.leafPages, overflowPages: raw.overflowPages, entries: raw.entries)
    }

    /// Opens a cursor on `database`, valid until the transaction ends.
    ///
    /// ```swift
    /// var cursor = try tx.cursor(on: tweets)
    /// var entry = try cursor.first()
    /// while let (key, value) = entry { print(key.count, value.count); entry = try cursor.next() }
    /// ```
    @usableFromInline func cursor(on database: Database) throws -> Cursor {
        try context.checkLive("mdb_cursor_open")
        let (code, cursor) = LMDB.openCursor(handle, database.dbi)
        try LMDB.check(code, "mdb_cursor_open", database: database.name, path: context.environment.path)
        return Cursor(handle: cursor!, context: context, database: database)
    }

    /// Calls `body` for each entry in key order (or reverse), within `range`, until it returns `false`.
    ///
    /// Keys and values are zero-copy views valid only during the call.
    ///
    /// ```swift
    /// try tx.forEach(in: tweets, range: .prefix([0x01])) { key, value in print(key.count); return true }
    /// ```
    @usableFromInline func forEach(in database: Database, range: KeyRange = .all, reverse: Bool = false,
                        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) throws {
        let cursor = try self.cursor(on: database)
        defer { cursor.close() }
        var entry = try cursor.position(at: range, reverse: reverse)
        while let (key, value) = entry {
            guard range.contains(key) else {
                // In reverse order we may start above the range's upper end; skip down to it.
                if reverse, range.isAbove(key) { entry = try cursor.previous(); continue }
                return
            }
            guard try body(key, value) else { return }
            entry = reverse ? try cursor.previous() : try cursor.next()
        }
    }
}
