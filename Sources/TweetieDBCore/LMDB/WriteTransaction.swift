/// A read-write transaction. It only exists inside ``Environment/write(_:)-96fr9`` (or the async
/// form), which begins and commits it on one thread.
///
/// ```swift
/// try env.write { tx in
///     try tx.put(key, value, in: tweets)
///     try tx.delete(oldKey, in: tweets)
/// }
/// ```
@usableFromInline struct WriteTransaction: ReadableTransaction {
    /// The transaction's shared state (internal).
    @usableFromInline let context: TransactionContext
}

extension WriteTransaction {
    /// Stores `value` for `key`, replacing any previous value.
    ///
    /// Throws ``StoreError/Code-swift.enum/badValueSize`` for a key longer than 511 bytes.
    ///
    /// ```swift
    /// try tx.put(Array("id".utf8), Array("value".utf8), in: tweets)
    /// ```
    @usableFromInline func put(_ key: [UInt8], _ value: [UInt8], in database: Database) throws {
        _ = try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(rawKey: k, rawValue: v, in: database) } }
    }

    /// Stores `value` for `key` only if the key is absent; returns `false` (and writes nothing)
    /// when it already exists.
    ///
    /// ```swift
    /// let inserted = try tx.insert(key, value, in: tweets)
    /// ```
    @usableFromInline func insert(_ key: [UInt8], _ value: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { k in
            try value.withUnsafeBytes { v in
                try put(rawKey: k, rawValue: v, in: database, flags: .noOverwrite)
            }
        }
    }

    /// Stores raw bytes; `flags` are LMDB put flags.
    @discardableResult
    func put(rawKey key: UnsafeRawBufferPointer, rawValue value: UnsafeRawBufferPointer, in database: Database, flags: LMDB.PutFlags = []) throws -> Bool {
        try context.checkLive("mdb_put")
        let code = LMDB.put(handle, database.dbi, key: key, value: value, flags: flags)
        if code == LMDB.keyExists, flags.contains(.noOverwrite) { return false }
        try checkPut(code, keyCount: key.count, in: database)
        return true
    }

    /// Throws for a failed `mdb_put` (noting `MDB_MAP_FULL` for the environment's retry).
    @inline(__always)
    private func checkPut(_ code: Int32, keyCount: Int, in database: Database) throws {
        if code == LMDB.mapFull { context.sawMapFull = true }
        if code == LMDB.badValueSizeCode {
            throw StoreError(lmdbCode: code, operation: "mdb_put", database: database.name, path: context.environment.path)
                .appending(" (key of \(keyCount) bytes; LMDB keys are limited to \(LMDB.maxKeySize) bytes)")
        }
        try LMDB.check(code, "mdb_put", database: database.name, path: context.environment.path)
    }

    /// Stores raw bytes unless the key is present (`MDB_NOOVERWRITE`); returns `nil` when it
    /// stored them, or the value already stored (zero-copy, valid until the next write in this
    /// transaction) and writes nothing. One B-tree search either way.
    @usableFromInline
    func putIfAbsent(rawKey key: UnsafeRawBufferPointer, rawValue value: UnsafeRawBufferPointer, in database: Database) throws -> UnsafeRawBufferPointer? {
        try context.checkLive("mdb_put")
        let cursor = try context.putCursor(database)
        if let appended = context.appendIfLast(cursor, dbi: database.dbi, key: key, value: value) {
            // A key after the last one cannot be present.
            try checkPut(appended, keyCount: key.count, in: database)
            return nil
        }
        let (code, existing) = LMDB.putIfAbsent(cursor, key: key, value: value)
        if code == LMDB.keyExists { return existing }
        try checkPut(code, keyCount: key.count, in: database)
        return nil
    }

    /// Removes `key`; returns whether it was present.
    ///
    /// ```swift
    /// let removed = try tx.delete(key, in: tweets)
    /// ```
    @discardableResult
    @usableFromInline func delete(_ key: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { try delete(rawKey: $0, in: database) }
    }

    /// Stores raw bytes, replacing any previous value. Non-generic, for the store's inlinable
    /// write loops.
    @usableFromInline
    func putValue(rawKey key: UnsafeRawBufferPointer, rawValue value: UnsafeRawBufferPointer, in database: Database) throws {
        try context.checkLive("mdb_put")
        try checkPut(LMDB.put(try context.putCursor(database), key: key, value: value), keyCount: key.count, in: database)
    }

    /// Stores raw bytes under a key expected to be new, replacing any previous value: appended
    /// when it sorts last (see ``TransactionContext/appendIfLast(_:dbi:key:value:)``), put the
    /// ordinary way otherwise. For index entries, which a store writes in key order in bulk.
    @usableFromInline
    func putAppending(rawKey key: UnsafeRawBufferPointer, rawValue value: UnsafeRawBufferPointer, in database: Database) throws {
        try context.checkLive("mdb_put")
        let cursor = try context.putCursor(database)
        let code = context.appendIfLast(cursor, dbi: database.dbi, key: key, value: value) ?? LMDB.put(cursor, key: key, value: value)
        try checkPut(code, keyCount: key.count, in: database)
    }

    /// Removes a raw key; returns whether it was present.
    @discardableResult
    @usableFromInline
    func delete(rawKey key: UnsafeRawBufferPointer, in database: Database) throws -> Bool {
        try context.checkLive("mdb_del")
        let code = LMDB.delete(handle, database.dbi, key: key, value: nil)
        if code == LMDB.notFound { return false }
        if code == LMDB.mapFull { context.sawMapFull = true }
        try LMDB.check(code, "mdb_del", database: database.name, path: context.environment.path)
        return true
    }

    /// Removes every entry of `database`, keeping the database itself (`mdb_drop` with `del = 0`).
    ///
    /// ```swift
    /// try tx.removeAll(in: tweets)
    /// ```
    @usableFromInline func removeAll(in database: Database) throws {
        try context.checkLive("mdb_drop")
        let code = LMDB.drop(handle, database.dbi)
        if code == LMDB.mapFull { context.sawMapFull = true }
        try LMDB.check(code, "mdb_drop", database: database.name, path: context.environment.path)
    }
}

extension LMDB {
    static let badValueSizeCode: Int32 = -30781
}

extension StoreError {
    func appending(_ text: String) -> StoreError {
        var copy = self
        copy.message += text
        return copy
    }
}
