import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`.
///
/// An environment is opened once per process: ``open(at:configuration:)`` keeps a registry by
/// canonical path and hands back the environment that is already open rather than calling
/// `mdb_env_open` a second time (LMDB forbids that: its locks are per process). It is always opened
/// with `MDB_NOTLS`, so read transactions are not tied to a thread.
///
/// Work happens in closure-scoped transactions: ``read(_:)`` runs on the calling thread and may
/// run concurrently with anything; ``write(_:)-4d5z8`` begins and commits on the calling thread;
/// ``write(_:)-2x0mg`` (async) runs the closure on the environment's one dedicated writer thread.
///
/// ```swift
/// let env = try Environment.open(at: "/tmp/example")
/// let tweets = try env.database(named: "tweets")
/// try env.write { tx in try tx.put(Array("1".utf8), Array("hello".utf8), in: tweets) }
/// let value = try env.read { tx in try tx.value(for: Array("1".utf8), in: tweets) }
/// ```
public final class Environment: @unchecked Sendable {
    /// The canonical path of the environment's directory.
    ///
    /// ```swift
    /// print(env.path) // "/tmp/example"
    /// ```
    public let path: String
    /// The configuration the environment was opened with.
    ///
    /// ```swift
    /// print(env.configuration.durability)
    /// ```
    public let configuration: Configuration

    /// Why this read-only environment reads without LMDB's lock file (`MDB_NOLOCK`), or `nil`
    /// when it uses the lock file as usual.
    ///
    /// It happens only when the lock file cannot be written and no writer can run: a read-only
    /// file system, or a `data.mdb` that is immutable or has no write permission for anyone.
    ///
    /// ```swift
    /// if let reason = env.withoutLockFile { print("reading without the lock file: \(reason)") }
    /// ```
    public let withoutLockFile: String?

    let handle: LMDB.EnvironmentHandle
    /// Every transaction holds this shared; resizing the map takes it exclusively, because
    /// `mdb_env_set_mapsize` requires that no transaction of this process is active.
    let resizeLock = ReadWriteLock()
    private let state = Mutex(State())
    private let writerThread: WriterThread

    private struct State {
        var databases: [String: Database] = [:]
        var closed = false
        var mapSize = 0
    }

    private static let registry = Mutex<[String: WeakEnvironment]>([:])

    private struct WeakEnvironment {
        weak var environment: Environment?
    }

    // MARK: Opening

    /// Opens the environment in `path`, or returns the one this process already has open there.
    ///
    /// Opening a path that is already open with an equal configuration returns the same instance;
    /// with a different configuration it throws ``DatabaseError/Code-swift.enum/alreadyOpen``.
    /// Stale reader slots left by dead processes are cleared (`mdb_reader_check`) on open.
    /// A damaged `data.mdb` that LMDB would crash on while opening or looking up a named database
    /// — a truncated file, an impossible meta page, damaged pages of the main database or (unless
    /// read-only) of the free list — is refused with ``DatabaseError/Code-swift.enum/corrupted``
    /// (see ``checkPageStructure()``).
    ///
    /// A missing, empty or incomplete `data.mdb` (a creation cut short) is refused, and nothing is
    /// created, when the configuration is read-only or ``Configuration/createDatabase`` is off;
    /// otherwise an incomplete one is discarded and the database created anew. `lock.mdb` has its
    /// disk blocks reserved first, so a full disk is an ENOSPC error rather than a SIGBUS. A
    /// read-only open whose lock file cannot be written reads without it only when no writer can
    /// exist (``withoutLockFile``). When root creates files in a directory owned by another user,
    /// they are given to that user.
    ///
    /// ```swift
    /// let env = try Environment.open(at: "/tmp/example")
    /// let same = try Environment.open(at: "/tmp/example")
    /// assert(env === same)
    /// ```
    public static func open(at path: String, configuration: Configuration = Configuration()) throws(DatabaseError) -> Environment {
        try validate(configuration, path: path)
        let fileManager = FileManager.default
        var status = stat()
        if stat(path, &status) != 0 {
            let code = errno
            guard code == ENOENT else {
                throw DatabaseError(.system(code), operation: "open", path: path,
                                    message: (code == EACCES ? "permission denied: " : "") + "cannot reach the database directory: \(String(cString: strerror(code))) (errno \(code)); this process runs as uid \(geteuid())")
            }
            guard configuration.createDirectory, configuration.createDatabase, !configuration.readOnly else {
                throw DatabaseError(.system(ENOENT), operation: "open", path: path, message: "the database directory does not exist (nothing was created)")
            }
            do {
                try fileManager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DatabaseError(.system(EACCES), operation: "open", path: path, message: "cannot create the database directory: \(error.localizedDescription)")
            }
        } else if status.st_mode & S_IFMT != S_IFDIR {
            throw DatabaseError(.notADatabase, operation: "open", path: path, message: "the path is a file, not a database directory")
        }
        let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path

        return try registry.withLock { (registry) throws(DatabaseError) -> Environment in
            if let existing = registry[canonical]?.environment, !existing.isClosed {
                guard existing.configuration == configuration else {
                    throw DatabaseError(.alreadyOpen, operation: "open", path: canonical,
                                        message: "this process already has the environment open with a different configuration; reuse the open environment")
                }
                return existing
            }
            let environment = try Environment(path: canonical, configuration: configuration)
            registry[canonical] = WeakEnvironment(environment: environment)
            return environment
        }
    }

    private static func validate(_ configuration: Configuration, path: String) throws(DatabaseError) {
        func invalid(_ message: String) -> DatabaseError {
            DatabaseError(.invalidArgument, operation: "open", path: path, message: message)
        }
        guard !path.isEmpty else { throw invalid("the database path is empty") }
        guard configuration.mapSize > 0 else { throw invalid("mapSize must be positive, got \(configuration.mapSize)") }
        guard configuration.maximumMapSize >= configuration.mapSize else {
            throw invalid("maximumMapSize (\(configuration.maximumMapSize)) is smaller than mapSize (\(configuration.mapSize))")
        }
        guard configuration.maxDatabases > 0 else { throw invalid("maxDatabases must be positive") }
        guard configuration.maxReaders > 0 else { throw invalid("maxReaders must be positive") }
    }

    private init(path: String, configuration: Configuration) throws(DatabaseError) {
        self.path = path
        self.configuration = configuration
        let handle = try LMDB.createEnvironment()
        var flags: LMDB.OpenFlags = [.noTLS]
        switch configuration.durability {
        case .full: break
        case .noMetaSync: flags.insert(.noMetaSync)
        case .noSync: flags.insert(.noSync)
        }
        if configuration.readOnly { flags.insert(.readOnly) }
        let fileManager = FileManager.default
        let dataPath = path + "/data.mdb", lockPath = path + "/lock.mdb"
        let dataExisted = fileManager.fileExists(atPath: dataPath), lockExisted = fileManager.fileExists(atPath: lockPath)
        var withoutLockFile: String?
        do {
            try Environment.prepareDataFile(path: path, configuration: configuration)
            withoutLockFile = try Environment.prepareLockFile(path: path, configuration: configuration)
            if withoutLockFile != nil { flags.insert(.noLock) }
            try LMDB.check(LMDB.setMapSize(handle, configuration.mapSize), "mdb_env_set_mapsize", path: path)
            try LMDB.check(LMDB.setMaxDatabases(handle, configuration.maxDatabases), "mdb_env_set_maxdbs", path: path)
            try LMDB.check(LMDB.setMaxReaders(handle, configuration.maxReaders), "mdb_env_set_maxreaders", path: path)
            try Environment.checkMetaPages(dataPath: dataPath, path: path)
            try LMDB.check(LMDB.open(handle, path: path, flags: flags, mode: configuration.fileMode), "mdb_env_open", path: path)
            try Environment.checkFileSize(handle, dataPath: dataPath, path: path)
            // LMDB trusts its pages: refuse a damaged catalog (or free list) before any read of it.
            try Environment.checkCatalog(handle, path: path, readOnly: configuration.readOnly)
        } catch {
            var error = error
            if error.code == .readersFull { error.message += Environment.readersFullExplanation(handle) }
            LMDB.close(handle)
            // Leave the directory as it was: remove the lock file (and an empty data file) this
            // failed open created.
            if !lockExisted { try? fileManager.removeItem(atPath: lockPath) }
            // A creation cut short (a full disk) must not leave a data.mdb every later open refuses.
            if !dataExisted, let state = try? Environment.dataFileState(path: path), state != .present, state != .absent {
                try? fileManager.removeItem(atPath: dataPath)
            }
            throw Environment.explainOpenFailure(error, path: path)
        }
        if !dataExisted { Environment.giveToDirectoryOwner(dataPath, directory: path) }
        self.withoutLockFile = withoutLockFile
        self.handle = handle
        self.writerThread = WriterThread()
        _ = LMDB.readerCheck(handle)
        // The file may be larger than the configured size (another process grew it): adopt it.
        let info = LMDB.info(handle)
        state.withLock { $0.mapSize = info.mapSize }
    }

    /// Refuses a data file shorter than its last committed page: LMDB maps the file and would
    /// crash the process (SIGBUS) on the first read of a page past its end.
    private static func checkFileSize(_ handle: LMDB.EnvironmentHandle, dataPath: String, path: String) throws(DatabaseError) {
        var status = stat()
        guard stat(dataPath, &status) == 0 else { return }
        // A damaged last page number must not overflow the arithmetic: it ends "beyond any size".
        let (pages, overflowed) = LMDB.info(handle).lastPage.addingReportingOverflow(1)
        let (needed, overflowedAgain) = pages.multipliedReportingOverflow(by: LMDB.pageSize(handle))
        let end = overflowed || overflowedAgain || pages <= 0 ? Int.max : needed
        guard Int(status.st_size) < end else { return }
        throw truncatedError(fileSize: Int(status.st_size), end: end, path: path)
    }

    static func truncatedError(fileSize: Int, end: Int, path: String) -> DatabaseError {
        DatabaseError(.corrupted, operation: "open", path: path,
                      message: "data.mdb is truncated: it holds \(fileSize) bytes but its last committed page ends at byte \(end) (the file was cut short, e.g. copied while incomplete); restore it from a backup")
    }

    /// What `MDB_READERS_FULL` means and what to do; the number of slots is the lock file's, set
    /// by the first process to open the database (not necessarily this configuration's).
    static func readersFullExplanation(_ handle: LMDB.EnvironmentHandle) -> String {
        "; all \(LMDB.info(handle).maxReaders) reader slots are in use by live read transactions of running processes (those of dead processes were reclaimed); raise Configuration.maxReaders in the first process to open the database"
    }

    private static func explainOpenFailure(_ error: DatabaseError, path: String) -> DatabaseError {
        var error = error
        switch error.code {
        case .invalid:
            error.code = .notADatabase
            error.message = "data.mdb is not a valid LMDB file (MDB_INVALID: File is not a valid LMDB file)"
        case .versionMismatch:
            error.message = "the database was written by an incompatible LMDB version (MDB_VERSION_MISMATCH)"
        case .system(EACCES), .system(EPERM), .system(EROFS), .system(EMFILE), .system(ENFILE):
            guard !error.message.hasPrefix("permission denied"), !error.message.hasPrefix("read-only"), !error.message.hasPrefix("cannot open") else { break }
            guard case .system(let code) = error.code else { break }
            error = fileError(code, file: "data.mdb", operation: error.operation, path: path, purpose: "for reading and writing")
            if code != EMFILE, code != ENFILE { error.message += "; open it read-only or fix the permissions" }
        case .system(ENOMEM):
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_AS.rawValue), &limit)
            let addressSpace = limit.rlim_cur == rlim_t.max ? "" : "; the address-space limit (ulimit -v) is \(limit.rlim_cur / 1024) KiB: raise it"
            error.message = "cannot map the database: out of memory or address space (\(error.message))\(addressSpace)"
        case .system(ENOSPC), .system(EDQUOT):
            guard !error.message.hasPrefix("no space left") else { break }
            error.code = .system(ENOSPC)
            error.message = "no space left on device while creating or opening the database (\(error.message)); nothing was kept: free some space and retry"
        default:
            break
        }
        return error
    }

    deinit {
        writerThread.stop()
        let closed = state.withLock { $0.closed }
        if !closed { LMDB.close(handle) }
    }

    /// Whether ``close()`` was called.
    ///
    /// ```swift
    /// env.close(); assert(env.isClosed)
    /// ```
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the environment: waits for running transactions, stops the writer thread and calls
    /// `mdb_env_close`. Later operations throw ``DatabaseError/Code-swift.enum/environmentClosed``.
    ///
    /// ```swift
    /// env.close()
    /// ```
    public func close() {
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let alreadyClosed = state.withLock { state -> Bool in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        writerThread.stop()
        LMDB.close(handle)
        Environment.registry.withLock { registry in
            if registry[path]?.environment === self || registry[path]?.environment == nil {
                registry[path] = nil
            }
        }
    }

    // MARK: Named databases

    /// Opens (creating if needed) the named database; handles are opened once and cached.
    ///
    /// Open every database at start, before concurrent work begins: LMDB DBI handles are shared by
    /// the whole process and must not be opened by two transactions at once.
    ///
    /// ```swift
    /// let tweets = try env.database(named: "tweets")
    /// ```
    public func database(named name: String?, create: Bool = true) throws -> Database {
        let key = name ?? ""
        if let existing = state.withLock({ $0.databases[key] }) { return existing }
        if let name, name.utf8.count > LMDB.maxKeySize {
            throw DatabaseError(.invalidArgument, operation: "mdb_dbi_open", database: name, path: path, message: "a database name is limited to \(LMDB.maxKeySize) bytes")
        }
        let flags: LMDB.DatabaseFlags = (create && !configuration.readOnly) ? [.create] : []
        // Opening a DBI needs a transaction; a write transaction when it may create the database.
        let open = { (tx: LMDB.TransactionHandle) throws(DatabaseError) -> Database in
            let (code, dbi) = LMDB.openDatabase(tx, name: name, flags: flags)
            if code == LMDB.notFound {
                throw DatabaseError(.notFound, operation: "mdb_dbi_open", database: name, path: self.path, message: "the named database does not exist")
            }
            try LMDB.check(code, "mdb_dbi_open", database: name, path: self.path)
            return Database(name: name, dbi: dbi)
        }
        let database: Database
        if flags.contains(.create) {
            database = try withWriteTransaction { tx in try open(tx.context.handle) }
        } else {
            // A DBI opened in a read transaction survives only if that transaction commits.
            database = try withReadTransaction(commit: true) { tx in try open(tx.context.handle) }
        }
        state.withLock { $0.databases[key] = database }
        return database
    }

    // MARK: Transactions

    /// Runs `body` in a read-only transaction on the calling thread and returns its result.
    ///
    /// The transaction sees one consistent snapshot. Readers never block writers or each other.
    /// Keep the closure short: an open read transaction keeps the pages of its snapshot alive.
    ///
    /// ```swift
    /// let count = try env.read { tx in try tx.stats(of: tweets).entries }
    /// ```
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try withReadTransaction { tx in try body(tx) }
    }

    /// Runs `body` in a write transaction on the calling thread, committing when it returns and
    /// aborting when it throws.
    ///
    /// The transaction begins and ends on this thread. A write inside another write on the same
    /// thread throws ``DatabaseError/Code-swift.enum/nestedWrite``.
    ///
    /// **`body` may run more than once.** When the map fills (`MDB_MAP_FULL`, even if `body`
    /// catches it), the transaction is aborted — nothing of that run is kept — the map grows and
    /// `body` runs again, from its start, in a new transaction; the value of the run that commits
    /// is returned. So inside `body`:
    /// - Do: read and write through `tx`, compute, keep state in variables declared in `body`.
    /// - Do not: consume what cannot be read again (an iterator, a stream, a pipe; a file only if
    ///   you seek back at the start of `body`); count, collect, log, print, notify or send
    ///   anything outside `body` — a second run repeats it, and a run that aborts made it for
    ///   nothing. Reset such state at the start of `body`, or act on the returned value after
    ///   `write` returns.
    /// - When the size of a large write is known ahead, ``growMap(toAtLeast:)`` first makes a
    ///   second run unlikely (it is never ruled out: another process may fill the map).
    ///
    /// ```swift
    /// try env.write { tx in try tx.put(key, value, in: tweets) }
    /// ```
    @discardableResult
    public func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        try withWriteTransaction { tx in try body(tx) }
    }

    /// Runs `body` in a write transaction on the environment's dedicated writer thread.
    ///
    /// All async writes of the environment run one after another on that thread, so a write
    /// transaction is never held across an `await` and never hops threads. As with the
    /// synchronous ``write(_:)-4d5z8``, **`body` may run more than once** (after the map grows):
    /// the same rules apply to what it may do.
    ///
    /// ```swift
    /// try await env.write { tx in try tx.put(key, value, in: tweets) }
    /// ```
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = writerThread.enqueue {
                continuation.resume(with: Result { try self.withWriteTransaction { tx in try body(tx) } })
            }
            if let error = writerThreadError(outcome) { continuation.resume(throwing: error) }
        }
    }

    /// Runs `body` on the environment's writer thread without a transaction (used by the store to
    /// serialize its own write bookkeeping with the environment's writes).
    func onWriterThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = writerThread.enqueue { continuation.resume(with: Result { try body() }) }
            if let error = writerThreadError(outcome) { continuation.resume(throwing: error) }
        }
    }

    /// The error for a job the writer thread did not take, or `nil` when it took it.
    private func writerThreadError(_ outcome: WriterThread.Outcome) -> DatabaseError? {
        switch outcome {
        case .accepted:
            return nil
        case .stopped:
            return DatabaseError(.environmentClosed, operation: "write", path: path, message: "the environment is closed")
        case .threadFailed(let code):
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_AS.rawValue), &limit)
            let addressSpace = limit.rlim_cur == rlim_t.max ? "" : " (the address-space limit, ulimit -v, is \(limit.rlim_cur / 1024) KiB: raise it)"
            return DatabaseError(.system(code), operation: "write", path: path,
                                 message: "cannot start the writer thread: \(String(cString: strerror(code))) (errno \(code)); the process is out of memory, address space or threads\(addressSpace)")
        }
    }

    func withReadTransaction<T>(commit: Bool = false, _ body: (ReadTransaction) throws -> T) throws -> T {
        let context = try begin(write: false)
        defer { end(context, commit: commit) }
        return try body(ReadTransaction(context: context))
    }

    func withWriteTransaction<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        guard !configuration.readOnly else {
            throw DatabaseError(.invalidArgument, operation: "write", path: path, message: "the environment is open read-only")
        }
        guard !ThreadTransactions.inWrite else {
            throw DatabaseError(.nestedWrite, operation: "write", path: path,
                                message: "this thread is already inside a write transaction; use that transaction instead of starting another")
        }
        while true {
            let context = try begin(write: true)
            let result: T
            do {
                result = try body(WriteTransaction(context: context))
            } catch {
                let mapFull = context.sawMapFull
                end(context, commit: false)
                if mapFull {
                    try growMap()
                    continue
                }
                throw error
            }
            if context.sawMapFull {
                // The closure swallowed a map-full error: the transaction is unusable. Retry bigger.
                end(context, commit: false)
                try growMap()
                continue
            }
            let code = LMDB.commit(context.handle)
            context.isLive = false
            finish(context)
            if code == LMDB.mapFull {
                try growMap()
                continue
            }
            guard code == LMDB.success else { throw commitFailure(code) }
            return result
        }
    }

    /// The error for a failed commit. LMDB reports a short write of its pages as EIO, which is
    /// what a full disk usually produces: when the file system is (nearly) full, say so.
    private func commitFailure(_ code: Int32) -> DatabaseError {
        var error = DatabaseError(lmdbCode: code, operation: "mdb_txn_commit", path: path)
        guard [ENOSPC, EIO, EFBIG, EDQUOT].contains(code) else { return error }
        var fs = statvfs()
        let free = statvfs(path, &fs) == 0 ? Int(fs.f_bavail) * Int(fs.f_frsize) : nil
        if code == ENOSPC || code == EDQUOT || (free ?? .max) < 4 * LMDB.pageSize(handle) {
            error.code = .system(ENOSPC)
            error.message = "no space left on device (\(free.map { "\($0) bytes free" } ?? "free space unknown"), LMDB reported: \(error.message)); the transaction was rolled back and the database is unchanged: free some space and retry"
        } else if code == EFBIG {
            error.message += "; the data file reached the largest size this process may write (RLIMIT_FSIZE or the file system's limit); the transaction was rolled back"
        }
        return error
    }

    private func begin(write: Bool) throws(DatabaseError) -> TransactionContext {
        var checkedReaders = false
        while true {
            resizeLock.lockShared()
            if state.withLock({ $0.closed }) {
                resizeLock.unlock()
                throw DatabaseError(.environmentClosed, operation: "mdb_txn_begin", path: path, message: "the environment is closed")
            }
            let (code, txn) = LMDB.beginTransaction(handle, readOnly: !write)
            if code == LMDB.success, let txn {
                ThreadTransactions.didBegin(write: write)
                return TransactionContext(environment: self, handle: txn, isWrite: write)
            }
            resizeLock.unlock()
            switch code {
            case LMDB.mapResized:
                // Another process grew the map: adopt its size (set_mapsize(0)) with no transaction active.
                try adoptMapSize()
            case LMDB.readersFull where !checkedReaders:
                checkedReaders = true
                _ = LMDB.readerCheck(handle)
            default:
                var error = DatabaseError(lmdbCode: code, operation: "mdb_txn_begin", path: path)
                if code == LMDB.readersFull { error.message += Environment.readersFullExplanation(handle) }
                throw error
            }
        }
    }

    private func end(_ context: TransactionContext, commit: Bool) {
        if context.isLive, commit, !context.isWrite {
            _ = LMDB.commit(context.handle)
            context.isLive = false
        } else if context.isLive {
            LMDB.abort(context.handle)
            context.isLive = false
        }
        finish(context)
    }

    private func finish(_ context: TransactionContext) {
        ThreadTransactions.didEnd(write: context.isWrite)
        resizeLock.unlock()
    }

    // MARK: Map size

    private func adoptMapSize() throws(DatabaseError) {
        guard ThreadTransactions.openCount == 0 else {
            throw DatabaseError(.mapResized, operation: "mdb_txn_begin", path: path,
                                message: "another process grew the map, and this thread holds another transaction open, so the new size cannot be adopted; end that transaction first")
        }
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        try LMDB.check(LMDB.setMapSize(handle, 0), "mdb_env_set_mapsize", path: path)
        let size = LMDB.info(handle).mapSize
        state.withLock { $0.mapSize = size }
    }

    /// Grows the map now, to at least `bytes` (capped at ``Configuration/maximumMapSize``), so that
    /// a write known to be large does not fill the map, abort and run its body again at each
    /// doubling. Does nothing when the map is already that large. Call it outside any transaction
    /// (it throws ``DatabaseError/Code-swift.enum/mapFull`` when this thread holds one open); the
    /// map is address space, not disk space: the data file grows only with what is written.
    ///
    /// ```swift
    /// try env.growMap(toAtLeast: env.info().usedBytes + 2 * importFileSize)
    /// ```
    public func growMap(toAtLeast bytes: Int) throws(DatabaseError) {
        try growMap(minimum: bytes)
    }

    /// Doubles the map (after `MDB_MAP_FULL`), or grows it to at least `minimum`.
    private func growMap(minimum: Int? = nil) throws(DatabaseError) {
        guard ThreadTransactions.openCount == 0 else {
            throw DatabaseError(.mapFull, operation: "write", path: path,
                                message: "the map is full and cannot grow while this thread holds another transaction open")
        }
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let current = max(LMDB.info(handle).mapSize, state.withLock { $0.mapSize })
        let pageSize = LMDB.pageSize(handle)
        var target: Int
        if let minimum {
            guard minimum > current, current < configuration.maximumMapSize else { return }
            target = min(minimum, configuration.maximumMapSize - pageSize + 1) + pageSize - 1
        } else {
            guard current < configuration.maximumMapSize else {
                throw DatabaseError(.mapFull, operation: "write", path: path,
                                    message: "the map is full at its maximum size of \(configuration.maximumMapSize) bytes (Configuration.maximumMapSize)")
            }
            target = min(current * 2, configuration.maximumMapSize)
        }
        target = (target / pageSize) * pageSize
        try LMDB.check(LMDB.setMapSize(handle, target), "mdb_env_set_mapsize", path: path)
        state.withLock { $0.mapSize = target }
    }

    // MARK: Information and maintenance

    /// The environment's size and activity (`mdb_env_info`).
    ///
    /// ```swift
    /// print(env.info().mapSize, env.info().lastTransactionID)
    /// ```
    public func info() -> EnvironmentInfo {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        guard !isClosed else {
            return EnvironmentInfo(mapSize: 0, pageSize: 0, lastPageNumber: 0, lastTransactionID: 0, maxReaders: 0, readersInUse: 0)
        }
        let raw = LMDB.info(handle)
        let pageSize = LMDB.pageSize(handle)
        return EnvironmentInfo(mapSize: raw.mapSize, pageSize: pageSize, lastPageNumber: raw.lastPage,
                               lastTransactionID: raw.lastTransaction, maxReaders: raw.maxReaders,
                               readersInUse: LMDB.heldReaderSlots(handle))
    }

    /// The id of the last committed transaction, from any process. Cheap: it reads the lock file.
    ///
    /// ```swift
    /// let before = env.lastTransactionID
    /// ```
    public var lastTransactionID: Int {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        return isClosed ? 0 : LMDB.info(handle).lastTransaction
    }

    /// Clears reader slots left by processes that died (`mdb_reader_check`); returns how many.
    ///
    /// ```swift
    /// let cleared = try env.clearStaleReaders()
    /// ```
    @discardableResult
    public func clearStaleReaders() throws(DatabaseError) -> Int {
        let (code, cleared) = LMDB.readerCheck(handle)
        try LMDB.check(code, "mdb_reader_check", path: path)
        return cleared
    }

    /// Flushes committed data to disk (`mdb_env_sync`); useful with ``Durability/noSync``.
    ///
    /// ```swift
    /// try env.sync(force: true)
    /// ```
    public func sync(force: Bool = true) throws(DatabaseError) {
        try LMDB.check(LMDB.sync(handle, force: force), "mdb_env_sync", path: path)
    }

    /// Writes a consistent copy of the environment to `directory` while readers and writers keep
    /// working (`mdb_env_copyfd2`); compacted (free pages omitted, pages renumbered) by default.
    ///
    /// The directory is created (0700) when missing and must not already hold a `data.mdb`. The
    /// copy is written to ``temporaryCopyName`` in `directory`, created 0600 whatever the umask,
    /// flushed to disk (file and directory) and only then renamed to `data.mdb`: a copy that fails
    /// (a full disk) or is killed never leaves a `data.mdb` behind. On failure the temporary file
    /// and any directory the copy created are removed; temporary files left in `directory` by
    /// killed copies (whose process is gone) are removed by the next copy there.
    ///
    /// ```swift
    /// try env.copy(to: "/backups/tweetie-2026-11-21")
    /// ```
    public func copy(to directory: String, compact: Bool = true) throws(DatabaseError) {
        func failure(_ code: DatabaseError.Code, _ message: String) -> DatabaseError {
            DatabaseError(code, operation: "mdb_env_copyfd2", path: directory, message: message)
        }
        func systemFailure(_ what: String) -> DatabaseError {
            let code = errno
            return failure(.system(code), "\(what): \(String(cString: strerror(code)))")
        }
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: directory + "/data.mdb") {
            throw failure(.invalidArgument, "the destination already holds a database (data.mdb); choose an empty directory")
        }
        guard !isClosed else {
            throw DatabaseError(.environmentClosed, operation: "mdb_env_copyfd2", path: path, message: "the environment is closed")
        }
        // The directories this copy creates, innermost first: removed again if the copy fails.
        var created: [String] = []
        var missing = directory
        while !missing.isEmpty, missing != "/", !fileManager.fileExists(atPath: missing) {
            created.append(missing)
            missing = (missing as NSString).deletingLastPathComponent
        }
        var descriptor: Int32 = -1
        let temporary = directory + "/" + Environment.temporaryCopyName
        var renamed = false
        defer {
            if descriptor >= 0 { Glibc.close(descriptor) }
            if !renamed {
                unlink(temporary)
                for path in created { rmdir(path) }
            }
        }
        do {
            try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw failure(.system(EACCES), "cannot create the destination directory: \(error.localizedDescription)")
        }
        if created.first == directory, chmod(directory, 0o700) != 0 { throw systemFailure("cannot make the destination directory private") }
        Environment.removeStaleTemporaryCopies(in: directory)
        descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw systemFailure("cannot create \(temporary)") }
        guard fchmod(descriptor, 0o600) == 0 else { throw systemFailure("cannot make \(temporary) private") }
        try LMDB.check(LMDB.copy(handle, to: descriptor, compact: compact), "mdb_env_copyfd2", path: directory)
        guard fsync(descriptor) == 0 else { throw systemFailure("cannot flush the copy to disk") }
        let closed = Glibc.close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw systemFailure("cannot finish writing the copy") }
        guard rename(temporary, directory + "/data.mdb") == 0 else { throw systemFailure("cannot rename the finished copy to data.mdb") }
        renamed = true
        // Make the rename (and a directory created here) durable too.
        for path in [directory] + created.prefix(1).map({ ($0 as NSString).deletingLastPathComponent }) {
            let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            _ = fsync(fd)
            Glibc.close(fd)
        }
    }

    /// Removes the temporary copies in `directory` left by copies whose process is gone (killed
    /// with SIGKILL, which leaves no chance to clean up); those of live processes stay.
    private static func removeStaleTemporaryCopies(in directory: String) {
        let prefix = "data.mdb.partial-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// The name, in the destination directory, that ``copy(to:compact:)`` writes to before
    /// renaming the finished copy to `data.mdb`: `data.mdb.partial-PID`.
    ///
    /// ```swift
    /// let leftover = "/backups/b/" + Environment.temporaryCopyName
    /// ```
    public static var temporaryCopyName: String { "data.mdb.partial-\(getpid())" }
}

/// A snapshot of an environment's size and activity.
///
/// ```swift
/// let info = env.info()
/// print("\(info.usedBytes) of \(info.mapSize) bytes used")
/// ```
public struct EnvironmentInfo: Sendable, Hashable, Codable {
    /// The current size of the memory map in bytes.
    ///
    /// ```swift
    /// print(info.mapSize)
    /// ```
    public var mapSize: Int
    /// The database page size in bytes.
    ///
    /// ```swift
    /// print(info.pageSize) // 4096
    /// ```
    public var pageSize: Int
    /// The number of the last used page.
    ///
    /// ```swift
    /// print(info.lastPageNumber)
    /// ```
    public var lastPageNumber: Int
    /// The id of the last committed transaction.
    ///
    /// ```swift
    /// print(info.lastTransactionID)
    /// ```
    public var lastTransactionID: Int
    /// The number of reader slots.
    ///
    /// ```swift
    /// print(info.maxReaders)
    /// ```
    public var maxReaders: Int
    /// The number of reader slots held now, by all processes: live read transactions, plus stale
    /// slots of dead processes until they are cleared (on open, by ``Environment/clearStaleReaders()``,
    /// or when the slots run out). Counted with `mdb_reader_list`, not LMDB's `me_numreaders`,
    /// which is a high-water mark that never goes down.
    ///
    /// ```swift
    /// print(info.readersInUse)
    /// ```
    public var readersInUse: Int
    /// The bytes of the map in use: `(lastPageNumber + 1) * pageSize`.
    ///
    /// ```swift
    /// print(info.usedBytes)
    /// ```
    public var usedBytes: Int { (lastPageNumber + 1) * pageSize }
}
