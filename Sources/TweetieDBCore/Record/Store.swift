import Foundation
import Synchronization

/// An LMDB-backed object store: typed collections, secondary indexes, queries, transactions and
/// a change log that feeds live queries in this and other processes.
///
/// ```swift
/// let store = try Store.open(at: "/tmp/tweets", collections: [Tweet.self, User.self])
/// try store.write { tx in try tx.add(tweet, update: .modified) }
/// let newest = try store.read { tx in try tx.fetch(Query<Tweet>().sorted(byIndex: "created").limit(50)) }
/// ```
public final class Store: @unchecked Sendable {
    /// The on-disk format this version writes. A database with a higher format is refused.
    ///
    /// Format 2 logs a commit id with every change-log entry (``ChangeLogPosition``); format 1
    /// databases are read as they are and marked format 2 by the first open that may write, so
    /// that an older TweetieDB refuses them instead of misreading their log.
    ///
    /// ```swift
    /// print(Store.formatVersion)
    /// ```
    public static let formatVersion = 2

    /// The LMDB environment underneath: internal, so that callers go through the store (see
    /// `Store+Maintenance.swift` for what they need of it).
    let environment: Environment
    /// The configuration the store was opened with.
    ///
    /// ```swift
    /// print(store.configuration.changeLogRetention)
    /// ```
    public let configuration: StoreConfiguration
    /// The directory of the database.
    ///
    /// ```swift
    /// print(store.path)
    /// ```
    public var path: String { environment.path }

    let meta: Database
    let log: Database
    let collectionsByName: [String: CollectionDescriptor]
    let collectionsByType: [ObjectIdentifier: CollectionDescriptor]
    let notifier: CommitNotifier
    private let removeOnClose: Bool
    private let closed = Mutex(false)

    /// The largest LMDB key (`mdb_env_get_maxkeysize` of the default build).
    @usableFromInline static let maxKeySize = 511

    static let metaName = "_meta"
    static let logName = "_changes"
    static let formatKey = Array("format".utf8)

    // MARK: Opening

    /// Opens (creating when needed) the database in `path` with the given collections.
    ///
    /// Opening a path this process already has open (under any spelling: symbolic links and `..`
    /// are resolved) gives another, independent `Store` on the same LMDB environment — LMDB allows
    /// one per path and process — usable until it is closed, whatever happens to the others. It
    /// must ask for the same configuration (``StoreError/Code-swift.enum/alreadyOpen`` names the
    /// settings that differ).
    ///
    /// Opening reads what exists and takes the write lock only when it has something to write
    /// (creating the database or a collection, a changed index, a migration): an open never waits
    /// for another process's writer otherwise.
    ///
    /// Refuses, without changing anything, a database written by a newer format version, a
    /// directory holding an LMDB database that is not a TweetieDB one, and a damaged `data.mdb`
    /// whose pages opening would read through LMDB (meta page, main database, `_meta`, free list:
    /// ``StoreError/Code-swift.enum/corrupted``; ``verify(progress:)`` checks every other page). Runs migrations for
    /// collections whose schema version went up and rebuilds indexes whose definition changed.
    ///
    /// ```swift
    /// let store = try Store.open(at: path, collections: [Tweet.self, User.self])
    /// ```
    public static func open(at path: String, configuration: StoreConfiguration = StoreConfiguration(),
                            collections: [any Record.Type], migrations: [Migration] = []) throws -> Store {
        try Store(path: path, configuration: configuration, collections: collections, migrations: migrations, removeOnClose: false)
    }

    /// A fresh store in a new temporary directory, removed when the store is closed — for tests and
    /// previews (the role of Realm's `inMemoryIdentifier`).
    ///
    /// ```swift
    /// let store = try Store.temporary(collections: [Tweet.self])
    /// defer { store.close() }
    /// ```
    /// Its durability is `.noSync` (nothing outlives the store anyway) unless `keepDurability` is
    /// set, as a benchmark of durable commits needs.
    public static func temporary(collections: [any Record.Type], configuration: StoreConfiguration = StoreConfiguration(),
                                 keepDurability: Bool = false) throws -> Store {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tweetiedb-\(UUID().uuidString)").path
        var configuration = configuration
        if !keepDurability { configuration.durability = .noSync }
        return try Store(path: path, configuration: configuration, collections: collections, migrations: [], removeOnClose: true)
    }

    private init(path: String, configuration: StoreConfiguration, collections: [any Record.Type],
                 migrations: [Migration], removeOnClose: Bool) throws {
        try Store.validate(collections: collections, path: path)
        guard configuration.changeLogRetention > 0 else {
            throw StoreError(.invalidArgument, operation: "open", path: path, message: "changeLogRetention must be positive")
        }
        self.configuration = configuration
        self.removeOnClose = removeOnClose
        let existed = FileManager.default.fileExists(atPath: path + "/data.mdb")
        if !existed { try Store.checkNoForeignFiles(in: path) }
        var envConfiguration = configuration.environment
        envConfiguration.maxDatabases = max(envConfiguration.maxDatabases,
                                            2 + collections.reduce(0) { $0 + 1 + $1.indexCount } + 8)
        let environment = try Environment.open(at: path, configuration: envConfiguration)
        self.environment = environment
        do {
            if existed {
                // Opening reads `_meta` through LMDB: make sure its pages are sound first.
                try environment.requireSoundPages(of: [Store.metaName], operation: "open")
                let hasMetadata = try Store.checkFormat(environment)
                // An LMDB file whose TweetieDB creation never committed: only an open that may
                // create a database completes it.
                if !hasMetadata, envConfiguration.readOnly || !envConfiguration.createDatabase {
                    throw Environment.missingDatabaseError(.present, path: environment.path)
                }
            }
            meta = try environment.database(named: Store.metaName, create: !envConfiguration.readOnly)
            log = try environment.database(named: Store.logName, create: !envConfiguration.readOnly)
            var byName: [String: CollectionDescriptor] = [:]
            var byType: [ObjectIdentifier: CollectionDescriptor] = [:]
            for type in collections {
                let descriptor = try type.makeDescriptor(in: environment, create: !envConfiguration.readOnly)
                byName[descriptor.name] = descriptor
                byType[descriptor.typeID] = descriptor
            }
            collectionsByName = byName
            collectionsByType = byType
            let notifyPath = environment.path + "/changes.notify"
            let notifyExisted = access(notifyPath, F_OK) == 0
            notifier = CommitNotifier(directory: environment.path, create: !envConfiguration.readOnly,
                                      paths: configuration.crossProcessWakeUp) { [environment] in
                CommitNotifier.newestSnapshot(of: environment)
            }
            if !notifyExisted { Environment.giveToDirectoryOwner(notifyPath, directory: environment.path) }
            if !envConfiguration.readOnly {
                try prepareSchema(migrations: migrations)
            }
        } catch {
            environment.release()
            if removeOnClose { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    private static func validate(collections: [any Record.Type], path: String) throws {
        var seen: Set<String> = []
        for type in collections {
            let name = type.collectionName
            let allowed = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }
            guard !name.isEmpty, allowed, !name.hasPrefix("_"), name.utf8.count <= 200 else {
                throw StoreError(.invalidArgument, operation: "open", database: name, path: path,
                                    message: "collection name '\(name)' of \(type) is invalid: use letters, digits, '_' and '-', not starting with '_'")
            }
            guard seen.insert(name).inserted else {
                throw StoreError(.invalidArgument, operation: "open", database: name, path: path,
                                    message: "two record types use the collection name '\(name)'")
            }
            try type.validateIndexes(path: path)
        }
    }

    /// The files a TweetieDB directory holds: LMDB's two files and the commit notification file.
    static let ownFiles: Set<String> = ["data.mdb", "lock.mdb", "changes.notify"]

    /// Refuses to create a new database in a directory that already holds other files (a wrong
    /// `--db` path, such as a home directory): nothing is created there.
    private static func checkNoForeignFiles(in path: String) throws {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        let foreign = entries.filter { !ownFiles.contains($0) && !$0.hasPrefix(".") }.sorted()
        guard !foreign.isEmpty else { return }
        let shown = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
        throw StoreError(.notADatabase, operation: "open", path: path,
                            message: "the directory holds \(foreign.count) other file(s) (\(shown)) and no data.mdb, so it is not a TweetieDB database; use an empty or new directory (nothing was created)")
    }

    // MARK: Closing

    /// Closes this store; a temporary store's directory is removed.
    ///
    /// Every ``open(at:configuration:collections:migrations:)`` of a path is its own handle on the
    /// process's one LMDB environment for that path: closing one (or letting it go out of scope)
    /// never affects another, and the environment closes with the last of them. Observations of
    /// this store end when it closes. Closing twice does nothing.
    ///
    /// ```swift
    /// store.close()
    /// ```
    public func close() {
        let wasClosed = closed.withLock { closed -> Bool in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        notifier.close()
        environment.release()
        if removeOnClose { try? FileManager.default.removeItem(atPath: path) }
    }

    deinit { close() }

    /// Whether ``close()`` was called on this store.
    ///
    /// ```swift
    /// store.close(); assert(store.isClosed)
    /// ```
    public var isClosed: Bool { closed.withLock { $0 } }

    /// Throws ``StoreError/Code-swift.enum/environmentClosed`` once this store is closed, even
    /// while other stores of the same path keep the environment open.
    func requireOpen(_ operation: String) throws(StoreError) {
        guard !isClosed else {
            throw StoreError(.environmentClosed, operation: operation, path: path, message: "the store is closed")
        }
    }

    // MARK: Transactions

    /// Runs `body` in a read transaction on the calling thread.
    ///
    /// ```swift
    /// let tweet = try store.read { tx in try tx.get(Tweet.self, key: 42) }
    /// ```
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try requireOpen("read")
        return try environment.read { tx in try body(StoreReader(store: self, transaction: tx)) }
    }

    /// Runs `body` in a read transaction without blocking the caller's executor.
    ///
    /// ```swift
    /// let count = try await store.read { tx in try tx.count(Tweet.self) }
    /// ```
    public func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(body) })
            }
        }
    }

    /// Runs `body` in a write transaction on the calling thread: committed when it returns, rolled
    /// back entirely when it throws. The change log entry is written in the same transaction.
    ///
    /// **`body` may run more than once.** When the map fills, the transaction is aborted —
    /// nothing of that run is kept — the map grows, and `body` runs again from its start with a
    /// new ``StoreWriter`` (its ``StoreWriter/changes`` empty); the value of the run that commits
    /// is returned, and observers see that commit only. So inside `body`:
    /// - Do: read and write through `tx`, compute, keep state in variables declared in `body`,
    ///   return what the caller needs.
    /// - Do not: consume what cannot be read again (an iterator, an `AsyncSequence`, a pipe; a
    ///   file only if you seek back at the start of `body`, as ``importNDJSON(from:mode:maxLineBytes:progress:)``
    ///   does); count, collect, log, print, notify or send anything outside `body` — a second run
    ///   repeats it, and a run that aborts made it for nothing. Reset such state at the start of
    ///   `body`, or act on the returned value after `write` returns.
    /// - When the size of a large write is known ahead, ``growMap(toAtLeast:)`` first
    ///   makes a second run unlikely (never impossible: another process may fill the map).
    ///
    /// ```swift
    /// try store.write { tx in
    ///     try tx.add(tweet, update: .modified)
    ///     try tx.delete(Tweet.self, key: 7)
    /// }
    /// ```
    @discardableResult
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        try requireOpen("write")
        let committed = try environment.write { tx in try logged(body, in: tx) }
        if let sequence = committed.sequence { notifier.didCommit(sequence: sequence) }
        return committed.value
    }

    /// Runs `body` in a write transaction on the store's dedicated writer thread.
    ///
    /// Like the synchronous `write`, **`body` may run more than once** (after the map grows), with
    /// the same rules for what it may do; it never runs across an `await`.
    ///
    /// Async writes that queue up while the writer thread is busy share one durable commit (group
    /// commit): each still runs in order, sees the writes queued before it, rolls back alone when it
    /// throws, and gets its own change-log entry, and each caller resumes only once that commit is
    /// on disk (at the store's ``StoreConfiguration/durability``). Many concurrent writers thus pay
    /// for far fewer syncs than commits. Writers that await each write and write again come back
    /// just after the thread has started the next commit; so when fewer writes are queued than the
    /// last commit answered, the thread waits for the rest — at most half as long as that commit
    /// took, and never more than 0.2 ms — and takes them together. A lone writer never waits.
    ///
    /// ```swift
    /// try await store.write { tx in try tx.add(contentsOf: tweets, update: .modified) }
    /// ```
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T {
        try requireOpen("write")
        return try await environment.write({ tx in try self.logged(body, in: tx) }, afterCommit: { committed in
            if let sequence = committed.sequence { self.notifier.didCommit(sequence: sequence) }
        }).value
    }

    // MARK: Collections

    @usableFromInline
    func descriptor<R: Record>(for type: R.Type) throws -> CollectionDescriptor {
        guard let descriptor = collectionsByType[ObjectIdentifier(type)] else {
            throw StoreError(.invalidArgument, operation: "collection", database: R.collectionName, path: path,
                                message: "\(R.self) is not registered with this store; pass it in Store.open(collections:)")
        }
        return descriptor
    }

    /// The names of the registered collections, sorted.
    ///
    /// ```swift
    /// print(store.collectionNames) // ["tweets", "users"]
    /// ```
    public var collectionNames: [String] { collectionsByName.keys.sorted() }

    /// The index names of a registered collection.
    ///
    /// ```swift
    /// print(store.indexNames(of: "tweets"))
    /// ```
    public func indexNames(of collection: String) -> [String] {
        collectionsByName[collection]?.indexes.map(\.name) ?? []
    }
}

extension Record {
    static var indexCount: Int { indexes.count }

    static func makeDescriptor(in environment: Environment, create: Bool) throws -> CollectionDescriptor {
        // Without `create` (a read-only store), a collection or index this database never held
        // cannot be made: say which, and how to get it, rather than LMDB's "does not exist".
        func open(_ name: String, _ what: @autoclosure () -> String) throws -> Database {
            do {
                return try environment.database(named: name, create: create)
            } catch let error as StoreError where error.code == .notFound && !create {
                throw StoreError(.notFound, operation: "open", database: name, path: environment.path,
                                 message: "\(what()) is not in this database, and a store opened read-only cannot create it: open the database once with write access (which creates it), or open it without \(Self.self)")
            }
        }
        let records = try open(collectionName, "the collection '\(collectionName)' of \(Self.self)")
        let indexDatabases = try indexes.map { index in
            try open("\(collectionName)#\(index.name)", "the index '\(index.name)' of \(Self.self)'s collection '\(collectionName)'")
        }
        return CollectionDescriptor(Self.self, records: records, indexDatabases: indexDatabases)
    }

    static func validateIndexes(path: String) throws {
        var names: Set<String> = []
        for index in indexes {
            guard !index.name.isEmpty, !index.name.contains("#"), names.insert(index.name).inserted else {
                throw StoreError(.invalidArgument, operation: "open", database: collectionName, path: path,
                                    message: "index name '\(index.name)' of \(Self.self) is empty, contains '#', or is used twice")
            }
        }
    }
}
