import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Transactions: closure-scoped read and write transactions, the writer thread, and the
/// map-full retry of a write.
extension Environment {
    /// Runs `body` in a read-only transaction on the calling thread and returns its result.
    ///
    /// The transaction sees one consistent snapshot. Readers never block writers or each other.
    /// Keep the closure short: an open read transaction keeps the pages of its snapshot alive.
    ///
    /// ```swift
    /// let count = try env.read { tx in try tx.stats(of: tweets).entries }
    /// ```
    func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try withReadTransaction { tx in try body(tx) }
    }

    /// Runs `body` in a write transaction on the calling thread, committing when it returns and
    /// aborting when it throws.
    ///
    /// The transaction begins and ends on this thread. A write inside another write on the same
    /// thread throws ``StoreError/Code-swift.enum/nestedWrite``.
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
    func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        try withWriteTransaction { tx in try body(tx) }
    }

    /// Runs `body` in a write transaction on the environment's dedicated writer thread.
    ///
    /// All async writes of the environment run one after another on that thread, so a write
    /// transaction is never held across an `await` and never hops threads. As with the
    /// synchronous ``write(_:)-96fr9``, **`body` may run more than once** (after the map grows):
    /// the same rules apply to what it may do.
    ///
    /// ```swift
    /// try await env.write { tx in try tx.put(key, value, in: tweets) }
    /// ```
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws -> T {
        try await write(body, afterCommit: { _ in })
    }

    /// Runs `body` in a write transaction on the environment's writer thread, then `afterCommit`
    /// with its value on that thread once the commit is durable, before the caller resumes.
    ///
    /// Writes queued behind one another share one commit (``commitGroup(_:)``): `body` runs in a
    /// transaction nested in the group's, sees the queued writes before it, and its throw undoes
    /// only its own work. It may run more than once, as for ``write(_:)-96fr9``. `afterCommit`
    /// runs once, and only for a write that committed.
    ///
    /// ```swift
    /// let sequence = try await env.write({ tx in try appendEntry(tx) }, afterCommit: { notifier.didCommit(sequence: $0) })
    /// ```
    func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T,
                            afterCommit: @escaping @Sendable (T) -> Void) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let write = QueuedWrite(environment: self, body: body) { result in
                if case .success(let value) = result { afterCommit(value) }
                continuation.resume(with: result)
            }
            if let error = writerThreadError(writerThread.enqueue(write)) { continuation.resume(throwing: error) }
        }
    }

    /// The error for a job the writer thread did not take, or `nil` when it took it.
    private func writerThreadError(_ outcome: WriterThread.Outcome) -> StoreError? {
        switch outcome {
        case .accepted:
            return nil
        case .stopped:
            return StoreError(.environmentClosed, operation: "write", path: path, message: "the environment is closed")
        case .threadFailed(let code):
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_AS.rawValue), &limit)
            let addressSpace = limit.rlim_cur == rlim_t.max ? "" : " (the address-space limit, ulimit -v, is \(limit.rlim_cur / 1024) KiB: raise it)"
            return StoreError(.system(code), operation: "write", path: path,
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
            throw StoreError(.invalidArgument, operation: "write", path: path, message: "the environment is open read-only")
        }
        guard !ThreadTransactions.inWrite else {
            throw StoreError(.nestedWrite, operation: "write", path: path,
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
            guard try commitOrGrow(context) else { continue }
            return result
        }
    }

    /// Commits the top-level write transaction `context`; returns `false` when the map filled, the
    /// commit was undone and the map has grown (run the transaction again).
    func commitOrGrow(_ context: TransactionContext) throws -> Bool {
        let code = LMDB.commit(context.handle)
        context.isLive = false
        finish(context)
        if code == LMDB.mapFull {
            try growMap()
            return false
        }
        guard code == LMDB.success else { throw commitFailure(code) }
        return true
    }

    /// The error for a failed commit. LMDB reports a short write of its pages as EIO, which is
    /// what a full disk usually produces: when the file system is (nearly) full, say so.
    private func commitFailure(_ code: Int32) -> StoreError {
        var error = StoreError(lmdbCode: code, operation: "mdb_txn_commit", path: path)
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

    func begin(write: Bool) throws(StoreError) -> TransactionContext {
        var checkedReaders = false
        while true {
            resizeLock.lockShared()
            if state.withLock({ $0.closed }) {
                resizeLock.unlock()
                throw StoreError(.environmentClosed, operation: "mdb_txn_begin", path: path, message: "the environment is closed")
            }
            let (code, txn) = LMDB.beginTransaction(handle, readOnly: !write)
            if code == LMDB.success, let txn {
                ThreadTransactions.didBegin(write: write)
                if write { growFileAhead() }
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
                var error = StoreError(lmdbCode: code, operation: "mdb_txn_begin", path: path)
                if code == LMDB.readersFull { error.message += Environment.readersFullExplanation(handle) }
                throw error
            }
        }
    }

    func end(_ context: TransactionContext, commit: Bool) {
        if context.isLive, commit, !context.isWrite {
            _ = LMDB.commit(context.handle)
            context.isLive = false
        } else if context.isLive {
            LMDB.abort(context.handle)
            context.isLive = false
        }
        finish(context)
    }

    func finish(_ context: TransactionContext) {
        ThreadTransactions.didEnd(write: context.isWrite)
        resizeLock.unlock()
    }

}
