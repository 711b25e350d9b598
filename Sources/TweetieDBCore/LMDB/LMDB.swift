internal import CLMDB

/// The only place in TweetieDB that calls LMDB's C API.
///
/// Every function here is a thin, checked wrapper: it returns LMDB's status code or throws a
/// ``StoreError`` that names the operation. Nothing outside this file imports `CLMDB`, so the
/// rest of the library cannot forget a status check or misuse a raw pointer type.
enum LMDB {
    typealias EnvironmentHandle = OpaquePointer
    typealias TransactionHandle = OpaquePointer
    typealias CursorHandle = OpaquePointer
    typealias DBI = UInt32

    static let success: Int32 = MDB_SUCCESS
    static let notFound: Int32 = MDB_NOTFOUND
    static let keyExists: Int32 = MDB_KEYEXIST
    static let mapFull: Int32 = MDB_MAP_FULL
    static let mapResized: Int32 = MDB_MAP_RESIZED
    static let readersFull: Int32 = MDB_READERS_FULL

    /// The largest key LMDB accepts with its default build (`mdb_env_get_maxkeysize`).
    static let maxKeySize = 511

    static var version: String { String(cString: mdb_version(nil, nil, nil)) }

    static func message(for code: Int32) -> String { String(cString: mdb_strerror(code)) }

    /// Throws the ``StoreError`` for a non-zero LMDB result code.
    ///
    /// The database name and path are autoclosures: they are only evaluated on failure, so the hot
    /// paths (`mdb_get`, `mdb_put`, cursor moves) never touch the environment object to succeed.
    @inline(__always)
    static func check(_ code: Int32, _ operation: StaticString, database: @autoclosure () -> String? = nil,
                      path: @autoclosure () -> String? = nil) throws(StoreError) {
        if code != MDB_SUCCESS {
            throw StoreError(lmdbCode: code, operation: "\(operation)", database: database(), path: path())
        }
    }

    // MARK: Environment

    struct OpenFlags: OptionSet {
        let rawValue: UInt32
        static let noTLS = OpenFlags(rawValue: UInt32(MDB_NOTLS))
        static let noSync = OpenFlags(rawValue: UInt32(MDB_NOSYNC))
        static let noMetaSync = OpenFlags(rawValue: UInt32(MDB_NOMETASYNC))
        static let readOnly = OpenFlags(rawValue: UInt32(MDB_RDONLY))
        static let noLock = OpenFlags(rawValue: UInt32(MDB_NOLOCK))
        static let noReadAhead = OpenFlags(rawValue: UInt32(MDB_NORDAHEAD))
    }

    static func createEnvironment() throws(StoreError) -> EnvironmentHandle {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        return env!
    }

    static func setMapSize(_ env: EnvironmentHandle, _ size: Int) -> Int32 {
        mdb_env_set_mapsize(env, size)
    }

    static func setMaxDatabases(_ env: EnvironmentHandle, _ count: Int) -> Int32 {
        mdb_env_set_maxdbs(env, MDB_dbi(count))
    }

    static func setMaxReaders(_ env: EnvironmentHandle, _ count: Int) -> Int32 {
        mdb_env_set_maxreaders(env, UInt32(count))
    }

    static func open(_ env: EnvironmentHandle, path: String, flags: OpenFlags, mode: UInt32) -> Int32 {
        mdb_env_open(env, path, flags.rawValue, mdb_mode_t(mode))
    }

    static func close(_ env: EnvironmentHandle) { mdb_env_close(env) }

    static func setFlags(_ env: EnvironmentHandle, _ flags: OpenFlags, on: Bool) -> Int32 {
        mdb_env_set_flags(env, flags.rawValue, on ? 1 : 0)
    }

    static func sync(_ env: EnvironmentHandle, force: Bool) -> Int32 { mdb_env_sync(env, force ? 1 : 0) }

    /// Clears stale reader slots left by dead processes; returns how many were cleared.
    static func readerCheck(_ env: EnvironmentHandle) -> (code: Int32, cleared: Int) {
        var dead: Int32 = 0
        let code = mdb_reader_check(env, &dead)
        return (code, Int(dead))
    }

    /// The map size, last page, last transaction and reader limit (`mdb_env_info`). Its
    /// `me_numreaders` is left out on purpose: it is the high-water mark of slots ever used and
    /// never goes down; ``heldReaderSlots(_:)`` counts the slots held now.
    static func info(_ env: EnvironmentHandle) -> (mapSize: Int, lastPage: Int, lastTransaction: Int, maxReaders: Int) {
        var info = MDB_envinfo()
        _ = mdb_env_info(env, &info)
        return (info.me_mapsize, info.me_last_pgno, info.me_last_txnid, Int(info.me_maxreaders))
    }

    /// The reader slots whose owner pid is set, from `mdb_reader_list`: owner pid, thread and the
    /// snapshot (transaction id) the slot holds, `nil` when its owner has no read transaction open.
    static func readerSlots(_ env: EnvironmentHandle) -> [(pid: Int32, thread: UInt64, transactionID: Int?)] {
        var slots: [(pid: Int32, thread: UInt64, transactionID: Int?)] = []
        _ = withUnsafeMutablePointer(to: &slots) { list in
            mdb_reader_list(env, { message, context in
                // Slot lines are "pid thread txnid" (txnid "-" when idle); the header and
                // "(no active readers)" do not start with a number.
                guard let message, let context else { return 0 }
                let fields = String(cString: message).split { $0 == " " || $0 == "\n" }
                guard fields.count == 3, let pid = Int32(fields[0]), let thread = UInt64(fields[1], radix: 16) else { return 0 }
                let transactionID = Int(fields[2])
                context.assumingMemoryBound(to: [(pid: Int32, thread: UInt64, transactionID: Int?)].self).pointee
                    .append((pid, thread, transactionID))
                return 0
            }, list)
        }
        return slots
    }

    /// The number of reader slots whose owner pid is set (live or stale).
    static func heldReaderSlots(_ env: EnvironmentHandle) -> Int { readerSlots(env).count }

    /// The free list (LMDB's FREE_DBI, database 0) in the snapshot of `txn`: one record per
    /// transaction that freed pages, keyed by its id, holding the freed page numbers (an IDL whose
    /// first word is the count). Returns (transaction id, pages) per record, oldest first.
    static func freeList(_ txn: TransactionHandle) -> (code: Int32, records: [(transactionID: Int, pages: Int)]) {
        var cursor: OpaquePointer?
        let opened = mdb_cursor_open(txn, 0, &cursor)
        guard opened == MDB_SUCCESS, let cursor else { return (opened, []) }
        defer { mdb_cursor_close(cursor) }
        var records: [(transactionID: Int, pages: Int)] = []
        var op = MDB_FIRST
        while true {
            var k = MDB_val(), v = MDB_val()
            let code = mdb_cursor_get(cursor, &k, &v, op)
            if code == MDB_NOTFOUND { break }
            guard code == MDB_SUCCESS else { return (code, records) }
            op = MDB_NEXT
            guard k.mv_size == MemoryLayout<Int>.size, v.mv_size >= MemoryLayout<Int>.size, let key = k.mv_data, let value = v.mv_data else { continue }
            records.append((key.loadUnaligned(as: Int.self), value.loadUnaligned(as: Int.self)))
        }
        return (MDB_SUCCESS, records)
    }

    static func pageSize(_ env: EnvironmentHandle) -> Int {
        var stat = MDB_stat()
        _ = mdb_env_stat(env, &stat)
        return Int(stat.ms_psize)
    }

    /// The descriptor LMDB reads and writes `data.mdb` through (`mdb_env_get_fd`), or -1.
    static func dataFileDescriptor(_ env: EnvironmentHandle) -> Int32 {
        var fd: mdb_filehandle_t = -1
        return mdb_env_get_fd(env, &fd) == 0 ? fd : -1
    }

    static func copy(_ env: EnvironmentHandle, to fileDescriptor: Int32, compact: Bool) -> Int32 {
        mdb_env_copyfd2(env, fileDescriptor, compact ? UInt32(MDB_CP_COMPACT) : 0)
    }

    // MARK: Transactions

    static func beginTransaction(_ env: EnvironmentHandle, readOnly: Bool) -> (code: Int32, txn: TransactionHandle?) {
        var txn: OpaquePointer?
        let code = mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn)
        return (code, txn)
    }

    /// Begins a write transaction nested in `parent` (which must not be used until it ends): its
    /// commit merges into `parent`, its abort leaves `parent` as it was. Not with `MDB_WRITEMAP`.
    static func beginNestedTransaction(_ env: EnvironmentHandle, parent: TransactionHandle) -> (code: Int32, txn: TransactionHandle?) {
        var txn: OpaquePointer?
        let code = mdb_txn_begin(env, parent, 0, &txn)
        return (code, txn)
    }

    static func commit(_ txn: TransactionHandle) -> Int32 { mdb_txn_commit(txn) }
    static func abort(_ txn: TransactionHandle) { mdb_txn_abort(txn) }
    static func transactionID(_ txn: TransactionHandle) -> Int { mdb_txn_id(txn) }

    // MARK: Databases

    struct DatabaseFlags: OptionSet {
        let rawValue: UInt32
        static let create = DatabaseFlags(rawValue: UInt32(MDB_CREATE))
        static let duplicateSort = DatabaseFlags(rawValue: UInt32(MDB_DUPSORT))
    }

    static func openDatabase(_ txn: TransactionHandle, name: String?, flags: DatabaseFlags) -> (code: Int32, dbi: DBI) {
        var dbi: MDB_dbi = 0
        let code: Int32
        if let name {
            code = mdb_dbi_open(txn, name, flags.rawValue, &dbi)
        } else {
            code = mdb_dbi_open(txn, nil, flags.rawValue, &dbi)
        }
        return (code, dbi)
    }

    static func stat(_ txn: TransactionHandle, _ dbi: DBI) -> (code: Int32, pageSize: Int, depth: Int, branchPages: Int, leafPages: Int, overflowPages: Int, entries: Int) {
        var stat = MDB_stat()
        let code = mdb_stat(txn, dbi, &stat)
        return (code, Int(stat.ms_psize), Int(stat.ms_depth), stat.ms_branch_pages, stat.ms_leaf_pages, stat.ms_overflow_pages, stat.ms_entries)
    }

    static func drop(_ txn: TransactionHandle, _ dbi: DBI) -> Int32 { mdb_drop(txn, dbi, 0) }

    // MARK: Data

    /// Looks up `key`; on success `body` sees the value in place (valid until the transaction ends).
    @inline(__always)
    static func get<R>(_ txn: TransactionHandle, _ dbi: DBI, key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> (code: Int32, result: R?) {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let code = mdb_get(txn, dbi, &k, &v)
        guard code == MDB_SUCCESS else { return (code, nil) }
        return (code, try body(UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)))
    }

    struct PutFlags: OptionSet {
        let rawValue: UInt32
        static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
        static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
        static let noDuplicateData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
    }

    @inline(__always)
    static func put(_ txn: TransactionHandle, _ dbi: DBI, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags) -> Int32 {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        return mdb_put(txn, dbi, &k, &v, flags.rawValue)
    }

    /// `mdb_cursor_put` with `MDB_NOOVERWRITE`: inserts and returns `(MDB_SUCCESS, nil)`, or
    /// leaves the database unchanged and returns `(MDB_KEYEXIST, stored value)` — one search either way.
    @inline(__always)
    static func putIfAbsent(_ cursor: CursorHandle, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> (code: Int32, existing: UnsafeRawBufferPointer?) {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let code = mdb_cursor_put(cursor, &k, &v, UInt32(MDB_NOOVERWRITE))
        guard code == MDB_KEYEXIST else { return (code, nil) }
        return (code, UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
    }

    /// `mdb_cursor_put`: stores the value, replacing any previous one; with `.append`, stores
    /// the pair after the database's last key without searching the tree, leaving the split page
    /// full instead of half full. lmdb.h on `MDB_APPEND`: "Append the given key/data pair to the
    /// end of the database. This option allows fast bulk loading when keys are already known to
    /// be in the correct order. Loading unsorted keys with this flag will cause a `MDB_KEYEXIST`
    /// error" — and then nothing is written.
    @inline(__always)
    static func put(_ cursor: CursorHandle, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags = []) -> Int32 {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        return mdb_cursor_put(cursor, &k, &v, flags.rawValue)
    }

    @inline(__always)
    static func delete(_ txn: TransactionHandle, _ dbi: DBI, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) -> Int32 {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        if let value {
            var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            return mdb_del(txn, dbi, &k, &v)
        }
        return mdb_del(txn, dbi, &k, nil)
    }

    // MARK: Cursors

    enum CursorOperation {
        case first, last, next, previous, current, setRange, setKey
        var raw: MDB_cursor_op {
            switch self {
            case .first: MDB_FIRST
            case .last: MDB_LAST
            case .next: MDB_NEXT
            case .previous: MDB_PREV
            case .current: MDB_GET_CURRENT
            case .setRange: MDB_SET_RANGE
            case .setKey: MDB_SET_KEY
            }
        }
    }

    static func openCursor(_ txn: TransactionHandle, _ dbi: DBI) -> (code: Int32, cursor: CursorHandle?) {
        var cursor: OpaquePointer?
        let code = mdb_cursor_open(txn, dbi, &cursor)
        return (code, cursor)
    }

    static func closeCursor(_ cursor: CursorHandle) { mdb_cursor_close(cursor) }

    /// Moves the cursor; returns the entry it lands on, or `nil` at the end (`MDB_NOTFOUND`).
    @inline(__always)
    static func cursorGet(_ cursor: CursorHandle, _ op: CursorOperation, key: UnsafeRawBufferPointer? = nil) -> (code: Int32, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var v = MDB_val()
        let code = mdb_cursor_get(cursor, &k, &v, op.raw)
        // On failure LMDB may leave a size without data (e.g. an overflow page it cannot find):
        // such a pair is not a buffer.
        guard code == MDB_SUCCESS else { return (code, UnsafeRawBufferPointer(start: nil, count: 0), UnsafeRawBufferPointer(start: nil, count: 0)) }
        return (code, UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size), UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
    }

    static func cursorDelete(_ cursor: CursorHandle) -> Int32 { mdb_cursor_del(cursor, 0) }
}
