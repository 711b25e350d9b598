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
/// run concurrently with anything; ``write(_:)-96fr9`` begins and commits on the calling thread;
/// ``write(_:)-7oinx`` (async) runs the closure on the environment's one dedicated writer thread.
///
/// ```swift
/// let env = try Environment.open(at: "/tmp/example")
/// let tweets = try env.database(named: "tweets")
/// try env.write { tx in try tx.put(Array("1".utf8), Array("hello".utf8), in: tweets) }
/// let value = try env.read { tx in try tx.value(for: Array("1".utf8), in: tweets) }
/// ```
final class Environment: @unchecked Sendable {
    /// The canonical path of the environment's directory.
    ///
    /// ```swift
    /// print(env.path) // "/tmp/example"
    /// ```
    let path: String
    /// The configuration the environment was opened with.
    ///
    /// ```swift
    /// print(env.configuration.durability)
    /// ```
    let configuration: Configuration

    /// Why this read-only environment reads without LMDB's lock file (`MDB_NOLOCK`), or `nil`
    /// when it uses the lock file as usual.
    ///
    /// It happens only when the lock file cannot be written and no writer can run: a read-only
    /// file system, or a `data.mdb` that is immutable or has no write permission for anyone.
    ///
    /// ```swift
    /// if let reason = env.withoutLockFile { print("reading without the lock file: \(reason)") }
    /// ```
    let withoutLockFile: String?

    let handle: LMDB.EnvironmentHandle
    /// Every transaction holds this shared; resizing the map takes it exclusively, because
    /// `mdb_env_set_mapsize` requires that no transaction of this process is active.
    let resizeLock = ReadWriteLock()
    let state = Mutex(State())
    let writerThread: WriterThread

    struct State {
        var databases: [String: Database] = [:]
        var closed = false
        var mapSize = 0
        /// The handles ``open(at:configuration:)`` gave out and ``release()`` has not taken back.
        var handles = 0
    }

    private static let registry = Mutex<[String: WeakEnvironment]>([:])

    private struct WeakEnvironment {
        weak var environment: Environment?
    }

    // MARK: Opening

    /// Opens the environment in `path`, or returns the one this process already has open there.
    ///
    /// Opening a path that is already open with an equal configuration returns the same instance;
    /// with a different configuration it throws ``StoreError/Code-swift.enum/alreadyOpen``. Each
    /// open is a handle, given back with ``release()``: the environment closes when the last
    /// handle is released, so one user's close never closes it under another.
    /// Stale reader slots left by dead processes are cleared (`mdb_reader_check`) on open.
    /// A damaged `data.mdb` that LMDB would crash on while opening or looking up a named database
    /// — a truncated file, an impossible meta page, damaged pages of the main database or (unless
    /// read-only) of the free list — is refused with ``StoreError/Code-swift.enum/corrupted``
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
    static func open(at path: String, configuration: Configuration = Configuration()) throws(StoreError) -> Environment {
        try validate(configuration, path: path)
        let fileManager = FileManager.default
        var status = stat()
        if stat(path, &status) != 0 {
            let code = errno
            guard code == ENOENT else {
                throw StoreError(.system(code), operation: "open", path: path,
                                    message: (code == EACCES ? "permission denied: " : "") + "cannot reach the database directory: \(String(cString: strerror(code))) (errno \(code)); this process runs as uid \(geteuid())")
            }
            guard configuration.createDirectory, configuration.createDatabase, !configuration.readOnly else {
                throw StoreError(.system(ENOENT), operation: "open", path: path, message: "the database directory does not exist (nothing was created)")
            }
            do {
                try fileManager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.system(EACCES), operation: "open", path: path, message: "cannot create the database directory: \(error.localizedDescription)")
            }
        } else if status.st_mode & S_IFMT != S_IFDIR {
            throw StoreError(.notADatabase, operation: "open", path: path, message: "the path is a file, not a database directory")
        }
        let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path

        return try registry.withLock { (registry) throws(StoreError) -> Environment in
            if let existing = registry[canonical]?.environment, !existing.isClosed {
                guard existing.configuration == configuration else {
                    throw StoreError(.alreadyOpen, operation: "open", path: canonical,
                                        message: "this process already has the database open with a different configuration (\(configuration.differences(from: existing.configuration))); open it with the same configuration, or close the other store first")
                }
                existing.state.withLock { $0.handles += 1 }
                return existing
            }
            let environment = try Environment(path: canonical, configuration: configuration)
            environment.state.withLock { $0.handles = 1 }
            registry[canonical] = WeakEnvironment(environment: environment)
            return environment
        }
    }

    private static func validate(_ configuration: Configuration, path: String) throws(StoreError) {
        func invalid(_ message: String) -> StoreError {
            StoreError(.invalidArgument, operation: "open", path: path, message: message)
        }
        guard !path.isEmpty else { throw invalid("the database path is empty") }
        guard configuration.mapSize > 0 else { throw invalid("mapSize must be positive, got \(configuration.mapSize)") }
        guard configuration.maximumMapSize >= configuration.mapSize else {
            throw invalid("maximumMapSize (\(configuration.maximumMapSize)) is smaller than mapSize (\(configuration.mapSize))")
        }
        guard configuration.maxDatabases > 0 else { throw invalid("maxDatabases must be positive") }
        guard configuration.maxReaders > 0 else { throw invalid("maxReaders must be positive") }
    }

    private init(path: String, configuration: Configuration) throws(StoreError) {
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
    ///
    /// The last page is read before the file's size, never after: another process may commit
    /// meanwhile, and a commit writes its pages (growing the file) before its meta page, and LMDB
    /// never shrinks the file. Read the other way round, a commit landing between the two reads
    /// made a sound database look truncated (seen in the stress campaign under load).
    private static func checkFileSize(_ handle: LMDB.EnvironmentHandle, dataPath: String, path: String) throws(StoreError) {
        // A damaged last page number must not overflow the arithmetic: it ends "beyond any size".
        let (pages, overflowed) = LMDB.info(handle).lastPage.addingReportingOverflow(1)
        let (needed, overflowedAgain) = pages.multipliedReportingOverflow(by: LMDB.pageSize(handle))
        let end = overflowed || overflowedAgain || pages <= 0 ? Int.max : needed
        var status = stat()
        guard stat(dataPath, &status) == 0 else { return }
        guard Int(status.st_size) < end else { return }
        throw truncatedError(fileSize: Int(status.st_size), end: end, path: path)
    }

    static func truncatedError(fileSize: Int, end: Int, path: String) -> StoreError {
        StoreError(.corrupted, operation: "open", path: path,
                      message: "data.mdb is truncated: it holds \(fileSize) bytes but its last committed page ends at byte \(end) (the file was cut short, e.g. copied while incomplete); restore it from a backup")
    }

    /// What `MDB_READERS_FULL` means and what to do; the number of slots is the lock file's, set
    /// by the first process to open the database (not necessarily this configuration's).
    static func readersFullExplanation(_ handle: LMDB.EnvironmentHandle) -> String {
        "; all \(LMDB.info(handle).maxReaders) reader slots are in use by live read transactions of running processes (those of dead processes were reclaimed); raise StoreConfiguration.maxReaders in the first process to open the database"
    }

    private static func explainOpenFailure(_ error: StoreError, path: String) -> StoreError {
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

    /// Gives back one handle of ``open(at:configuration:)``; the last one closes the environment
    /// (``close()``). Done under the registry's lock, so that no open can hand out the environment
    /// while it closes, nor open a second one for the same path before it is closed.
    ///
    /// ```swift
    /// let env = try Environment.open(at: path)
    /// defer { env.release() }
    /// ```
    func release() {
        Environment.registry.withLock { registry in
            let last = state.withLock { state -> Bool in
                state.handles -= 1
                return state.handles <= 0
            }
            if last { close(registry: &registry) }
        }
    }

    /// Whether ``close()`` was called.
    ///
    /// ```swift
    /// env.close(); assert(env.isClosed)
    /// ```
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the environment: waits for running transactions, stops the writer thread and calls
    /// `mdb_env_close`. Later operations throw ``StoreError/Code-swift.enum/environmentClosed``.
    ///
    /// ```swift
    /// env.close()
    /// ```
    func close() {
        Environment.registry.withLock { registry in close(registry: &registry) }
    }

    /// ``close()``, with the registry's lock held by the caller.
    private func close(registry: inout [String: WeakEnvironment]) {
        resizeLock.lockExclusive()
        defer { resizeLock.unlock() }
        let alreadyClosed = state.withLock { state -> Bool in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        writerThread.stop()
        LMDB.close(handle)
        if registry[path]?.environment === self || registry[path]?.environment == nil {
            registry[path] = nil
        }
    }

    // MARK: Named databases

    /// Opens (creating if needed) the named database; handles are opened once and cached.
    ///
    /// Open every database at start, before concurrent work begins: LMDB DBI handles are shared by
    /// the whole process and must not be opened by two transactions at once.
    ///
    /// A database that exists is opened in a read transaction, even when `create` is set: a write
    /// transaction would wait for any writer of any process (readers never wait for a writer).
    /// Only a database that must be created takes the write lock.
    ///
    /// ```swift
    /// let tweets = try env.database(named: "tweets")
    /// ```
    func database(named name: String?, create: Bool = true) throws -> Database {
        let key = name ?? ""
        if let existing = state.withLock({ $0.databases[key] }) { return existing }
        if let name, name.utf8.count > LMDB.maxKeySize {
            throw StoreError(.invalidArgument, operation: "mdb_dbi_open", database: name, path: path, message: "a database name is limited to \(LMDB.maxKeySize) bytes")
        }
        let open = { (tx: LMDB.TransactionHandle, flags: LMDB.DatabaseFlags) throws(StoreError) -> Database in
            let (code, dbi) = LMDB.openDatabase(tx, name: name, flags: flags)
            if code == LMDB.notFound {
                throw StoreError(.notFound, operation: "mdb_dbi_open", database: name, path: self.path, message: "the named database does not exist")
            }
            try LMDB.check(code, "mdb_dbi_open", database: name, path: self.path)
            return Database(name: name, dbi: dbi)
        }
        let database: Database
        do {
            // A DBI opened in a read transaction survives only if that transaction commits.
            database = try withReadTransaction(commit: true) { tx in try open(tx.context.handle, []) }
        } catch let error as StoreError where error.code == .notFound && create && !configuration.readOnly {
            database = try withWriteTransaction { tx in try open(tx.context.handle, [.create]) }
        }
        state.withLock { $0.databases[key] = database }
        return database
    }
}
