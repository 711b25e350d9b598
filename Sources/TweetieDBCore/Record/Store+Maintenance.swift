import Foundation

/// What the store's callers need of the LMDB layer underneath — its size and readers, hot
/// backups, the page check — so that no code outside TweetieDB names an environment.
extension Store {
    /// The database's size and activity: map size, pages, last transaction, reader slots.
    ///
    /// ```swift
    /// print(store.info().mapSize, store.info().readersInUse)
    /// ```
    public func info() -> StoreInfo { environment.info() }

    /// The id of the last committed transaction, from any process. Cheap: it reads the lock file.
    ///
    /// ```swift
    /// let before = store.lastTransactionID
    /// ```
    public var lastTransactionID: Int { environment.lastTransactionID }

    /// Why the store reads without the lock file (a read-only file system, an immutable or
    /// unwritable `data.mdb`), or `nil` when it uses the lock file as usual.
    ///
    /// ```swift
    /// if let reason = store.withoutLockFile { print("reading without the lock file: \(reason)") }
    /// ```
    public var withoutLockFile: String? { environment.withoutLockFile }

    /// Writes a hot, consistent copy of the database to `directory` (free pages left out when
    /// `compact`), through a temporary file (``backupTemporaryName``) renamed only when complete.
    ///
    /// ```swift
    /// try store.backup(to: "/backups/2026-11-25")
    /// ```
    public func backup(to directory: String, compact: Bool = true) throws(StoreError) {
        try environment.copy(to: directory, compact: compact)
    }

    /// The name, inside the destination directory, of the file a ``backup(to:compact:)`` of this
    /// process writes before renaming it to `data.mdb`: what an interrupted backup leaves.
    ///
    /// ```swift
    /// let leftover = "/backups/b/" + Store.backupTemporaryName
    /// ```
    public static var backupTemporaryName: String { Environment.temporaryCopyName }

    /// Grows the map now, to at least `bytes` (capped at ``StoreConfiguration/maximumMapSize``),
    /// so that a write known to be large does not fill the map, abort and run its body again at
    /// each doubling (see `Store.write`). Does nothing when the map is already that large.
    /// Call it outside any transaction; the map is address space, not disk space.
    ///
    /// ```swift
    /// try store.growMap(toAtLeast: store.info().usedBytes + 3 * importFileSize)
    /// ```
    public func growMap(toAtLeast bytes: Int) throws(StoreError) { try environment.growMap(toAtLeast: bytes) }

    /// Flushes committed data to disk (`mdb_env_sync`); useful with
    /// ``StoreConfiguration/Durability/noSync``.
    ///
    /// ```swift
    /// try store.sync()
    /// ```
    public func sync(force: Bool = true) throws(StoreError) { try environment.sync(force: force) }

    /// Clears reader slots left by processes that died; returns how many.
    ///
    /// ```swift
    /// let cleared = try store.clearStaleReaders()
    /// ```
    @discardableResult
    public func clearStaleReaders() throws(StoreError) -> Int { try environment.clearStaleReaders() }

    /// The reader table: which process and thread holds which snapshot.
    ///
    /// ```swift
    /// let held = store.readerSlots().filter { $0.transactionID != nil }.count
    /// ```
    public func readerSlots() -> [ReaderSlot] { environment.readerSlots() }

    /// The free list: pages freed by past transactions, waiting for reuse.
    ///
    /// ```swift
    /// print(try store.freeList().pageCount)
    /// ```
    public func freeList() throws -> FreeList { try environment.freeList() }

    /// Checks the structure of every page of `data.mdb`, reading the file rather than through
    /// LMDB (the page check ``verify(progress:)`` runs first).
    ///
    /// ```swift
    /// let pages = try store.checkPageStructure().pagesChecked
    /// ```
    public func checkPageStructure() throws -> PageStructureReport { try environment.checkPageStructure() }
}
