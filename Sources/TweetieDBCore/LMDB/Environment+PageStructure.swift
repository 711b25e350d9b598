extension Environment {
    /// How many read transactions a page check tries before giving up because writers keep
    /// overwriting the meta page of its snapshot (each try needs two commits to race it).
    static let pageCheckAttempts = 5

    /// Checks the structure of every page of the current snapshot of `data.mdb` — the meta page,
    /// the free list, the main database and every named database — without reading it through
    /// LMDB, so a damaged page is reported instead of crashing the process.
    ///
    /// The file is read with `pread` while a read transaction holds the snapshot; see
    /// ``PageStructureReport`` for what is checked. It takes about as long as reading the file.
    ///
    /// ```swift
    /// let report = try env.checkPageStructure()
    /// print(report.isSound ? "\(report.pagesChecked) pages ok" : report.problems.joined(separator: "\n"))
    /// ```
    func checkPageStructure() throws -> PageStructureReport {
        for _ in 0..<Self.pageCheckAttempts {
            if let report = try read({ tx in try checkPageStructure(in: tx, scope: .everything) }) { return report }
        }
        throw snapshotOverwrittenError(operation: "page check")
    }

    /// Checks the pages of `tx`'s snapshot; `nil` when later commits already overwrote the meta
    /// page of that snapshot (check again in a new transaction).
    func checkPageStructure(in tx: some ReadableTransaction, scope: PageStructureCheck.Scope) throws(StoreError) -> PageStructureReport? {
        try tx.context.checkLive("page check")
        switch try PageStructureCheck.run(dataPath: path + "/data.mdb", pageSize: LMDB.pageSize(handle), snapshot: tx.id, scope: scope) {
        case .checked(let report): return report
        case .snapshotOverwritten: return nil
        }
    }

    /// Throws ``StoreError/Code-swift.enum/corrupted`` unless the main database, the named
    /// `databases` (and the free list, when this environment may write) are structurally sound —
    /// what must hold before LMDB may read them.
    func requireSoundPages(of databases: Set<String>, operation: String) throws {
        for _ in 0..<Self.pageCheckAttempts {
            let report = try withReadTransaction { tx in
                try checkPageStructure(in: tx, scope: .catalog(freeList: !configuration.readOnly, databases: databases))
            }
            if let report {
                if !report.isSound { throw Self.damagedError(report, operation: operation, path: path) }
                return
            }
        }
        throw snapshotOverwrittenError(operation: operation)
    }

    /// Refuses, before `mdb_env_open` reads them, meta pages LMDB would crash on (a zero or
    /// impossible page size) or that record more pages than the file holds.
    static func checkMetaPages(dataPath: String, path: String) throws(StoreError) {
        switch PageStructureCheck.inspectHeader(dataPath: dataPath) {
        case .leftToLMDB, .sound:
            return
        case .truncated(let fileSize, let end):
            throw truncatedError(fileSize: fileSize, end: end, path: path)
        case .damaged(let problem):
            throw StoreError(.corrupted, operation: "open", path: path,
                                message: "data.mdb is damaged: \(problem); LMDB would crash opening it, so it was not opened: restore the database from a backup")
        }
    }

    /// The open-time check: the meta page, the main database (the catalog of named databases) and,
    /// unless read-only, the free list, which every write transaction reads.
    static func checkCatalog(_ handle: LMDB.EnvironmentHandle, path: String, readOnly: Bool) throws(StoreError) {
        var retried: Set<Int32> = []
        for _ in 0..<pageCheckAttempts {
            let (code, txn) = LMDB.beginTransaction(handle, readOnly: true)
            if code == LMDB.readersFull || code == LMDB.mapResized, retried.insert(code).inserted {
                // Free the reader slots of dead processes, or adopt the size another process grew
                // the map to (no transaction is active yet); then try once more.
                _ = code == LMDB.readersFull ? LMDB.readerCheck(handle).code : LMDB.setMapSize(handle, 0)
                continue
            }
            try LMDB.check(code, "mdb_txn_begin", path: path)
            defer { LMDB.abort(txn!) }
            let outcome = try PageStructureCheck.run(dataPath: path + "/data.mdb", pageSize: LMDB.pageSize(handle),
                                                     snapshot: LMDB.transactionID(txn!), scope: .catalog(freeList: !readOnly, databases: []))
            if case .checked(let report) = outcome {
                if !report.isSound { throw damagedError(report, operation: "open", path: path) }
                return
            }
        }
        throw StoreError(.badTransaction, operation: "open", path: path,
                            message: "the meta page of every snapshot tried was overwritten by newer commits before it could be checked; retry")
    }

    static func damagedError(_ report: PageStructureReport, operation: String, path: String) -> StoreError {
        let more = report.problems.count > 1 ? " (and \(report.problems.count - 1) more problem(s))" : ""
        return StoreError(.corrupted, operation: operation, path: path,
                             message: "data.mdb is damaged: \(report.problems[0])\(more); LMDB would crash reading it, so it was not read: restore the database from a backup")
    }

    func snapshotOverwrittenError(operation: String) -> StoreError {
        StoreError(.badTransaction, operation: operation, path: path,
                      message: "writers committed so fast that the meta page of each of \(Self.pageCheckAttempts) snapshots was overwritten before it could be checked; retry")
    }
}
