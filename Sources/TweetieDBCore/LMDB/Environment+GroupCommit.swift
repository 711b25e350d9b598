/// Group commit: the async writes queued on the writer thread one after another share one
/// durable commit.
///
/// A group runs in one write transaction; each write's body runs in a transaction nested in it
/// (`mdb_txn_begin` with a parent, which LMDB allows without `MDB_WRITEMAP`, a flag the
/// environment never sets). A body that throws aborts its nested transaction only: the group goes
/// on without it, as if it had run alone. When every body has run, the group commits once — one
/// sync of the data pages, one of the meta page — and only then is each write answered.
///
/// The group behaves as the same writes run one after another: in queue order, each body seeing
/// the writes before it. When the map fills, the group's transaction is aborted, the map grows and
/// every body runs again; when the group cannot commit for another reason (a full disk), each
/// write runs again alone, so each gets its own outcome. A body may therefore run more than once,
/// which every write body must already allow.
extension Environment {
    /// Runs `writes` (queued in this order on the writer thread) and returns each one's outcome:
    /// `nil` once it is committed and durable, or its error. Called on the writer thread, which
    /// answers each write with its outcome.
    ///
    /// ```swift
    /// let outcomes = env.commitGroup([first, second, third]) // one commit, three outcomes
    /// ```
    func commitGroup(_ writes: [QueuedWrite]) -> [(any Error)?] {
        guard writes.count > 1 else { return writes.map(runAlone) }
        do {
            return try runGroup(writes)
        } catch {
            // The group's own transaction failed, not a body: run each write alone for its own outcome.
            return writes.map(runAlone)
        }
    }

    /// Runs one write in its own transaction; returns its outcome.
    private func runAlone(_ write: QueuedWrite) -> (any Error)? {
        do {
            try withWriteTransaction { tx in try write.run(tx) }
            return nil
        } catch {
            return error
        }
    }

    /// Runs every body in a transaction nested in one group transaction and commits the group;
    /// returns each body's error (`nil` for those that are now committed). Throws when the group
    /// transaction itself cannot begin or commit, or a nested one cannot (nothing is committed).
    private func runGroup(_ writes: [QueuedWrite]) throws -> [(any Error)?] {
        guard !configuration.readOnly, !ThreadTransactions.inWrite else {
            throw StoreError(.invalidArgument, operation: "write", path: path, message: "a group needs a writable environment and no open write")
        }
        while true {
            let group = try begin(write: true)
            var outcomes: [(any Error)?] = []
            var mapFull = false
            do {
                bodies: for write in writes {
                    switch try runNested(write, in: group) {
                    case .committed: outcomes.append(nil)
                    case .threw(let error): outcomes.append(error)
                    case .mapFull:
                        mapFull = true
                        break bodies
                    }
                }
            } catch {
                end(group, commit: false)
                throw error
            }
            if mapFull {
                end(group, commit: false)
                try growMap()
                continue
            }
            guard try commitOrGrow(group) else { continue }
            return outcomes
        }
    }

    /// What became of one body of a group.
    private enum NestedOutcome {
        /// Committed into the group's transaction.
        case committed
        /// The body threw: its nested transaction was aborted, the group's is as it was.
        case threw(any Error)
        /// The map filled: the body's run is lost and the group must grow the map and run again.
        case mapFull
    }

    /// Runs `write` in a transaction nested in `group`, committed into it when the body returns
    /// and aborted when it throws. Throws when the nested transaction cannot begin or commit.
    private func runNested(_ write: QueuedWrite, in group: TransactionContext) throws -> NestedOutcome {
        let (code, handle) = LMDB.beginNestedTransaction(self.handle, parent: group.handle)
        guard code == LMDB.success, let handle else {
            throw StoreError(lmdbCode: code, operation: "mdb_txn_begin (nested)", path: path)
        }
        let nested = TransactionContext(environment: self, handle: handle, isWrite: true)
        let thrown: (any Error)?
        do {
            try write.run(WriteTransaction(context: nested))
            thrown = nil
        } catch {
            thrown = error
        }
        // A map-full error makes the transaction unusable, even when the body caught it.
        if thrown != nil || nested.sawMapFull {
            LMDB.abort(handle)
            nested.isLive = false
            if nested.sawMapFull { return .mapFull }
            return .threw(thrown!)
        }
        let commitCode = LMDB.commit(handle)
        nested.isLive = false
        if commitCode == LMDB.mapFull { return .mapFull }
        guard commitCode == LMDB.success else { throw StoreError(lmdbCode: commitCode, operation: "mdb_txn_commit (nested)", path: path) }
        return .committed
    }
}
