import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The map size, information about the environment, and maintenance: stale readers, sync,
/// hot copies.
extension Environment {
    func adoptMapSize() throws(StoreError) {
        guard ThreadTransactions.openCount == 0 else {
            throw StoreError(.mapResized, operation: "mdb_txn_begin", path: path,
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
    /// (it throws ``StoreError/Code-swift.enum/mapFull`` when this thread holds one open); the
    /// map is address space, not disk space: the data file grows only with what is written.
    ///
    /// ```swift
    /// try env.growMap(toAtLeast: env.info().usedBytes + 2 * importFileSize)
    /// ```
    func growMap(toAtLeast bytes: Int) throws(StoreError) {
        try growMap(minimum: bytes)
    }

    /// Doubles the map (after `MDB_MAP_FULL`), or grows it to at least `minimum`.
    func growMap(minimum: Int? = nil) throws(StoreError) {
        guard ThreadTransactions.openCount == 0 else {
            throw StoreError(.mapFull, operation: "write", path: path,
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
                throw StoreError(.mapFull, operation: "write", path: path,
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
    func info() -> StoreInfo {
        resizeLock.lockShared()
        defer { resizeLock.unlock() }
        guard !isClosed else {
            return StoreInfo(mapSize: 0, pageSize: 0, lastPageNumber: 0, lastTransactionID: 0, maxReaders: 0, readersInUse: 0)
        }
        let raw = LMDB.info(handle)
        let pageSize = LMDB.pageSize(handle)
        return StoreInfo(mapSize: raw.mapSize, pageSize: pageSize, lastPageNumber: raw.lastPage,
                               lastTransactionID: raw.lastTransaction, maxReaders: raw.maxReaders,
                               readersInUse: LMDB.heldReaderSlots(handle))
    }

    /// The id of the last committed transaction, from any process. Cheap: it reads the lock file.
    ///
    /// ```swift
    /// let before = env.lastTransactionID
    /// ```
    var lastTransactionID: Int {
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
    func clearStaleReaders() throws(StoreError) -> Int {
        let (code, cleared) = LMDB.readerCheck(handle)
        try LMDB.check(code, "mdb_reader_check", path: path)
        return cleared
    }

    /// Flushes committed data to disk (`mdb_env_sync`); useful with ``Durability/noSync``.
    ///
    /// ```swift
    /// try env.sync(force: true)
    /// ```
    func sync(force: Bool = true) throws(StoreError) {
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
    func copy(to directory: String, compact: Bool = true) throws(StoreError) {
        func failure(_ code: StoreError.Code, _ message: String) -> StoreError {
            StoreError(code, operation: "mdb_env_copyfd2", path: directory, message: message)
        }
        func systemFailure(_ what: String) -> StoreError {
            let code = errno
            return failure(.system(code), "\(what): \(String(cString: strerror(code)))")
        }
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: directory + "/data.mdb") {
            throw failure(.invalidArgument, "the destination already holds a database (data.mdb); choose an empty directory")
        }
        guard !isClosed else {
            throw StoreError(.environmentClosed, operation: "mdb_env_copyfd2", path: path, message: "the environment is closed")
        }
        // The directories this copy creates, innermost first: removed again if the copy fails.
        var created: [String] = []
        var missing = directory
        while !missing.isEmpty, missing != ".", missing != "/", !fileManager.fileExists(atPath: missing) {
            created.append(missing)
            missing = Paths.parent(of: missing)
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
        for path in [directory] + created.prefix(1).map({ Paths.parent(of: $0) }) {
            let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            _ = fsync(fd)
            Glibc.close(fd)
        }
    }

    /// Removes the temporary copies in `directory` left by copies whose process is gone (killed
    /// with SIGKILL, which leaves no chance to clean up); those of live processes stay.
    /// Writes a hot, consistent copy of `data.mdb` into an open file descriptor
    /// (`mdb_env_copyfd2`), from its current position, without flushing or closing it.
    func copy(toFileDescriptor fileDescriptor: Int32, compact: Bool) throws(StoreError) {
        guard !isClosed else {
            throw StoreError(.environmentClosed, operation: "mdb_env_copyfd2", path: path, message: "the environment is closed")
        }
        try LMDB.check(LMDB.copy(handle, to: fileDescriptor, compact: compact), "mdb_env_copyfd2", path: path)
    }

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
    static var temporaryCopyName: String { "data.mdb.partial-\(getpid())" }
}
