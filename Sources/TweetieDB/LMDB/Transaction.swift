/// The state shared by a transaction value and the environment that runs it (opaque).
///
/// ```swift
/// // Not used directly: it is what a ReadTransaction or WriteTransaction stands on.
/// ```
public final class TransactionContext {
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
            throw DatabaseError(.invalidArgument, operation: "mdb_cursor_open", database: database.name, path: environment.path,
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
    func checkLive(_ operation: StaticString) throws(DatabaseError) {
        if !isLive {
            throw DatabaseError(.transactionEnded, operation: "\(operation)", path: environment.path,
                                message: "the transaction was used after its closure returned; do all work inside read { } or write { }")
        }
    }
}

/// A named LMDB database (a DBI): a sorted key–value map inside an ``Environment``.
///
/// Obtain one with ``Environment/database(named:create:)`` at start; the handle stays valid for the
/// environment's lifetime and may be used from any thread.
///
/// ```swift
/// let tweets = try env.database(named: "tweets")
/// ```
public struct Database: Sendable, Hashable {
    /// The database's name, or `nil` for LMDB's unnamed main database.
    ///
    /// ```swift
    /// print(tweets.name ?? "(main)")
    /// ```
    public let name: String?
    let dbi: LMDB.DBI

    var displayName: String { name ?? "(main)" }
}

/// Operations available in every transaction, read-only or read-write.
///
/// ```swift
/// func count(in tx: some ReadableTransaction, _ db: Database) throws -> Int { try tx.stats(of: db).entries }
/// ```
public protocol ReadableTransaction {
    /// The transaction's shared state (internal).
    var context: TransactionContext { get }
}

/// A read-only transaction: a consistent snapshot. It has no write methods, so a write through a
/// read transaction does not compile.
///
/// Values passed to closures point into the memory map and are valid only inside the closure;
/// copy them out (``ReadableTransaction/value(for:in:)``) to keep them.
///
/// ```swift
/// try env.read { tx in
///     if let bytes = try tx.value(for: key, in: tweets) { print(bytes.count) }
/// }
/// ```
public struct ReadTransaction: ReadableTransaction {
    /// The transaction's shared state (internal).
    public let context: TransactionContext
}

/// A read-write transaction. It only exists inside ``Environment/write(_:)-4d5z8`` (or the async
/// form), which begins and commits it on one thread.
///
/// ```swift
/// try env.write { tx in
///     try tx.put(key, value, in: tweets)
///     try tx.delete(oldKey, in: tweets)
/// }
/// ```
public struct WriteTransaction: ReadableTransaction {
    /// The transaction's shared state (internal).
    public let context: TransactionContext
}

extension ReadableTransaction {
    var handle: LMDB.TransactionHandle { context.handle }

    /// The id of this transaction's snapshot (`mdb_txn_id`).
    ///
    /// ```swift
    /// let id = try env.read { tx in tx.id }
    /// ```
    public var id: Int { LMDB.transactionID(context.handle) }

    /// Looks up `key` and passes the value to `body` without copying it.
    ///
    /// The buffer points into the memory map: it is valid only inside `body`.
    /// Returns `nil` when the key is absent.
    ///
    /// ```swift
    /// let length = try tx.withValue(for: key, in: tweets) { $0.count }
    /// ```
    @inlinable
    public func withValue<R>(for key: [UInt8], in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
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
    public func withValue<R>(forRawKey key: UnsafeRawBufferPointer, in database: Database, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
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
    public func value(for key: [UInt8], in database: Database) throws -> [UInt8]? {
        try withValue(for: key, in: database) { Array($0) }
    }

    /// Whether `key` is present.
    ///
    /// ```swift
    /// if try tx.contains(key, in: tweets) { … }
    /// ```
    public func contains(_ key: [UInt8], in database: Database) throws -> Bool {
        try withValue(for: key, in: database) { _ in true } ?? false
    }

    /// Statistics of a database in this snapshot (`mdb_stat`).
    ///
    /// ```swift
    /// print(try tx.stats(of: tweets).entries)
    /// ```
    public func stats(of database: Database) throws -> DatabaseStats {
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
    public func cursor(on database: Database) throws -> Cursor {
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
    public func forEach(in database: Database, range: KeyRange = .all, reverse: Bool = false,
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

extension WriteTransaction {
    /// Stores `value` for `key`, replacing any previous value.
    ///
    /// Throws ``DatabaseError/Code-swift.enum/badValueSize`` for a key longer than 511 bytes.
    ///
    /// ```swift
    /// try tx.put(Array("id".utf8), Array("value".utf8), in: tweets)
    /// ```
    public func put(_ key: [UInt8], _ value: [UInt8], in database: Database) throws {
        _ = try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(rawKey: k, rawValue: v, in: database) } }
    }

    /// Stores `value` for `key` only if the key is absent; returns `false` (and writes nothing)
    /// when it already exists.
    ///
    /// ```swift
    /// let inserted = try tx.insert(key, value, in: tweets)
    /// ```
    public func insert(_ key: [UInt8], _ value: [UInt8], in database: Database) throws -> Bool {
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
            throw DatabaseError(lmdbCode: code, operation: "mdb_put", database: database.name, path: context.environment.path)
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
    public func delete(_ key: [UInt8], in database: Database) throws -> Bool {
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
    public func removeAll(in database: Database) throws {
        try context.checkLive("mdb_drop")
        let code = LMDB.drop(handle, database.dbi)
        if code == LMDB.mapFull { context.sawMapFull = true }
        try LMDB.check(code, "mdb_drop", database: database.name, path: context.environment.path)
    }
}

extension LMDB {
    static let badValueSizeCode: Int32 = -30781
}

extension DatabaseError {
    func appending(_ text: String) -> DatabaseError {
        var copy = self
        copy.message += text
        return copy
    }
}

/// Statistics of one named database (`mdb_stat`).
///
/// ```swift
/// let stats = try env.read { tx in try tx.stats(of: tweets) }
/// print(stats.entries, stats.depth)
/// ```
public struct DatabaseStats: Sendable, Hashable, Codable {
    /// The page size in bytes.
    ///
    /// ```swift
    /// print(stats.pageSize)
    /// ```
    public var pageSize: Int
    /// The depth of the B-tree.
    ///
    /// ```swift
    /// print(stats.depth)
    /// ```
    public var depth: Int
    /// The number of internal (non-leaf) pages.
    ///
    /// ```swift
    /// print(stats.branchPages)
    /// ```
    public var branchPages: Int
    /// The number of leaf pages.
    ///
    /// ```swift
    /// print(stats.leafPages)
    /// ```
    public var leafPages: Int
    /// The number of overflow pages (values larger than about half a page).
    ///
    /// ```swift
    /// print(stats.overflowPages)
    /// ```
    public var overflowPages: Int
    /// The number of entries.
    ///
    /// ```swift
    /// print(stats.entries)
    /// ```
    public var entries: Int
    /// The bytes of the pages the database occupies.
    ///
    /// ```swift
    /// print(stats.bytes)
    /// ```
    public var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}
