/// What every store transaction reads: records by key, counts, queries, the change log.
extension StoreReader {
    /// The record with primary key `key`, or `nil`.
    ///
    /// ```swift
    /// let tweet = try tx.get(Tweet.self, key: 1071396963340435457)
    /// ```
    public func get<R: Record>(_ type: R.Type, key: R.PrimaryKey) throws -> R? {
        let descriptor = try store.descriptor(for: type)
        return try get(type, encodedKey: R.encode(primaryKey: key), descriptor: descriptor)
    }

    func get<R: Record>(_ type: R.Type, encodedKey: [UInt8], descriptor: CollectionDescriptor) throws -> R? {
        try transaction.withValue(for: encodedKey, in: descriptor.records) { bytes in
            try decodeRecord(type, bytes, descriptor: descriptor, key: encodedKey)
        }
    }

    func decodeRecord<R: Record>(_ type: R.Type, _ bytes: UnsafeRawBufferPointer, descriptor: CollectionDescriptor, key: [UInt8]) throws -> R {
        do {
            return try R._decodeStored(bytes, sharing: nil)
        } catch {
            throw descriptor.decodingFailed(error, key: key, typeName: "\(R.self)", path: store.path)
        }
    }

    /// Whether a record with primary key `key` exists.
    ///
    /// ```swift
    /// if try tx.contains(Tweet.self, key: 42) { … }
    /// ```
    public func contains<R: Record>(_ type: R.Type, key: R.PrimaryKey) throws -> Bool {
        let descriptor = try store.descriptor(for: type)
        return try transaction.contains(R.encode(primaryKey: key), in: descriptor.records)
    }

    /// The number of records in the collection (constant time).
    ///
    /// ```swift
    /// print(try tx.count(Tweet.self))
    /// ```
    public func count<R: Record>(_ type: R.Type) throws -> Int {
        try transaction.stats(of: store.descriptor(for: type).records).entries
    }

    /// The records matching `query`, in its order.
    ///
    /// ```swift
    /// let page = try tx.fetch(Query<Tweet>().sorted(by: Tweet.byCreated).limit(50))
    /// ```
    ///
    /// A fetch of a whole collection, or of a whole index, of at least 8,192 records (with no
    /// filter and no offset) decodes on two threads: this one walks the B-tree and finds each
    /// record's bytes, a second one decodes them as they are found, and both decode once the walk
    /// is over. The records, their order and any error are the same as on one thread; your
    /// `init(from:)` may run on either thread (see the Concurrency Rules).
    @inlinable
    public func fetch<R: Record>(_ query: Query<R>) throws -> [R] {
        let descriptor = try store.descriptor(for: R.self)
        let scan = try ScanPlan.make(query, descriptor: descriptor)
        if FetchPipeline.isWorthwhile, scan.walkIsSorted, query.predicates.isEmpty, query.offset == 0,
           scan.range.lowerBound == nil, scan.range.upperBoundExclusive == nil {
            let count = min(query.limitCount ?? Int.max, try transaction.stats(of: scan.database).entries)
            if count >= FetchPipeline.minimumCount {
                return try fetchDecodingAside(query, scan: scan, descriptor: descriptor, count: count)
            }
        }
        var records: [R] = []
        try walkRecords(query, descriptor: descriptor, scan: scan, presizing: true, reserve: { records.reserveCapacity($0) }) { record in
            records.append(record)
            return true
        }
        return records
    }

    /// ``fetch(_:)`` of the first `count` records of `scan`'s unbounded walk (no filter, no
    /// offset), decoded on a second thread as the walk finds them (see ``FetchPipeline``).
    @inlinable
    func fetchDecodingAside<R: Record>(_ query: Query<R>, scan: ScanPlan, descriptor: CollectionDescriptor, count: Int) throws -> [R] {
        let pipeline = FetchPipeline(capacity: count)
        let path = store.path
        let transaction = self.transaction
        return try [R](unsafeUninitializedCapacity: count) { buffer, initialized in
            let results = SendablePointer(buffer.baseAddress!)
            let sources = SendablePointer(pipeline.sources), keys = SendablePointer(pipeline.keys)
            pipeline.start { range, strings in
                for index in range {
                    do {
                        (results.pointer + index).initialize(to: try R._decodeStored(sources.pointer[index], sharing: strings))
                    } catch {
                        let error = descriptor.decodingFailed(error, key: Array(keys.pointer[index]), typeName: "\(R.self)", path: path)
                        return FetchPipeline.Failure(index: index, error: error)
                    }
                }
                return nil
            }
            var found = 0
            var walkError: (any Error)?
            do {
                let lookup = try scan.lookupCursor(in: transaction)
                defer { lookup?.close() }
                try transaction.forEach(in: scan.database, range: scan.range, reverse: scan.reverse) { key, value in
                    (pipeline.sources[found], pipeline.keys[found]) =
                        try scan.storedRecord(key: key, value: value, lookup: lookup, descriptor: descriptor, path: path)
                    found += 1
                    if found % FetchPipeline.chunkSize == 0, !pipeline.publish(found) { return false }
                    return found < count
                }
            } catch {
                walkError = error
            }
            pipeline.finish(walked: found)
            // A record that failed to decode comes before wherever the walk failed.
            if let error = pipeline.failure?.error ?? walkError {
                for range in pipeline.decodedRanges { (results.pointer + range.lowerBound).deinitialize(count: range.count) }
                initialized = 0
                throw error
            }
            initialized = found
        }
    }

    /// The number of records matching `query` (after offset and limit).
    ///
    /// ```swift
    /// let mine = try tx.fetchCount(Query<Tweet>().filter(Tweet.byAuthor, equals: "icanzilb"))
    /// ```
    @inlinable
    public func fetchCount<R: Record>(_ query: Query<R>) throws -> Int {
        var count = 0
        try forEach(query) { _ in count += 1; return true }
        return count
    }

    /// Calls `body` with each record matching `query`, in order, until it returns `false` —
    /// streaming: when the query's order comes from a key or index walk, records are decoded one
    /// at a time and nothing else is held in memory.
    ///
    /// The loop is inlinable, so it is specialized for the record type in the calling module.
    ///
    /// ```swift
    /// try tx.forEach(Query<Tweet>()) { tweet in print(tweet.id); return true }
    /// ```
    @inlinable
    public func forEach<R: Record>(_ query: Query<R>, _ body: (R) throws -> Bool) throws {
        try walkRecords(query, presizing: false, reserve: { _ in }) { record in try body(record) }
    }

    /// The loop behind ``forEach(_:_:)`` and ``fetch(_:)``: hands each record over (consumed, so
    /// `fetch` moves it into its array instead of copying it), and calls `reserve` first with
    /// the number of records a whole-collection walk will deliver (when `presizing`: counting them
    /// costs an `mdb_stat`, which only `fetch` needs).
    @inlinable
    func walkRecords<R: Record>(_ query: Query<R>, presizing: Bool, reserve: (Int) -> Void, _ body: (consuming R) throws -> Bool) throws {
        let descriptor = try store.descriptor(for: R.self)
        try walkRecords(query, descriptor: descriptor, scan: ScanPlan.make(query, descriptor: descriptor),
                        presizing: presizing, reserve: reserve, body)
    }

    /// ``walkRecords(_:presizing:reserve:_:)`` with the query already planned.
    @inlinable
    func walkRecords<R: Record>(_ query: Query<R>, descriptor: CollectionDescriptor, scan: ScanPlan, presizing: Bool,
                                reserve: (Int) -> Void, _ body: (consuming R) throws -> Bool) throws {
        guard scan.walkIsSorted else {
            // The order is not the walk's: collect and sort in memory.
            return try forEachEntry(query) { record, _, _ in try body(record) }
        }
        let limit = query.limitCount ?? Int.max
        guard limit > 0 else { return }
        if presizing, query.predicates.isEmpty, scan.range.lowerBound == nil, scan.range.upperBoundExclusive == nil {
            reserve(min(limit, max(0, try transaction.stats(of: scan.database).entries - query.offset)))
        }
        let offset = query.offset
        let predicates = query.predicates
        let transaction = self.transaction
        let path = store.path
        var skipped = 0
        var delivered = 0
        let sharing = SharedStringTable()
        let lookup = try scan.lookupCursor(in: transaction)
        defer { lookup?.close() }
        try transaction.forEach(in: scan.database, range: scan.range, reverse: scan.reverse) { key, value in
            let record: R = try scan.record(key: key, value: value, lookup: lookup, descriptor: descriptor, path: path, sharing: sharing)
            for predicate in predicates where !predicate(record) { return true }
            if skipped < offset {
                skipped += 1
                return true
            }
            delivered += 1
            return try body(consume record) && delivered < limit
        }
    }

    /// Like ``forEach(_:_:)`` but also passes each record's encoded primary key and sort key.
    @usableFromInline
    func forEachEntry<R: Record>(_ query: Query<R>, _ body: (R, [UInt8], EncodedKey) throws -> Bool) throws {
        let descriptor = try store.descriptor(for: R.self)
        let plan = try QueryPlan(query, descriptor: descriptor)
        var skipped = 0
        var delivered = 0
        let limit = query.limitCount ?? Int.max
        guard limit > 0 else { return }

        if plan.walkIsSorted {
            try walk(plan) { record, key in
                guard query.predicates.allSatisfy({ $0(record) }) else { return true }
                if skipped < query.offset { skipped += 1; return true }
                delivered += 1
                let keep = try body(record, key, plan.sortKey(of: record, primaryKey: key))
                return keep && delivered < limit
            }
            return
        }
        // The walk's order is not the sort order: collect the matches, sort them in memory.
        var matches: [(EncodedKey, [UInt8], R)] = []
        try walk(plan) { record, key in
            if query.predicates.allSatisfy({ $0(record) }) {
                matches.append((plan.sortKey(of: record, primaryKey: key), key, record))
            }
            return true
        }
        matches.sort { $0.0 < $1.0 }
        for (sortKey, key, record) in matches.dropFirst(query.offset).prefix(limit) {
            guard try body(record, key, sortKey) else { return }
        }
    }

    private func walk<R: Record>(_ plan: QueryPlan<R>, _ body: (R, [UInt8]) throws -> Bool) throws {
        let descriptor = plan.descriptor
        if plan.viaIndex {
            try transaction.forEach(in: plan.database, range: plan.range, reverse: plan.reverse) { _, value in
                let key = Array(value)
                guard let record = try get(R.self, encodedKey: key, descriptor: descriptor) else {
                    throw StoreError(.corrupted, operation: "query", database: descriptor.name, path: store.path,
                                        message: "an index entry points to the missing record \(descriptor.describeKey(key)); run verify")
                }
                return try body(record, key)
            }
        } else {
            try transaction.forEach(in: plan.database, range: plan.range, reverse: plan.reverse) { k, v in
                let key = Array(k)
                return try body(try decodeRecord(R.self, v, descriptor: descriptor, key: key), key)
            }
        }
    }

    /// The change-log entries committed after `sequence`, in this snapshot.
    ///
    /// ```swift
    /// let slice = try tx.changeLog(after: 0)
    /// ```
    public func changeLog(after sequence: UInt64) throws -> ChangeLogSlice {
        try ChangeLog.read(after: sequence, in: transaction, log: store.log, meta: store.meta)
    }

    /// The sequence number of the last change-log entry in this snapshot (0 when none).
    ///
    /// ```swift
    /// let last = try tx.lastChangeSequence()
    /// ```
    public func lastChangeSequence() throws -> UInt64 {
        try ChangeLog.lastSequence(in: transaction, meta: store.meta)
    }

    /// The position of the last change-log entry in this snapshot (``ChangeLogPosition/origin``
    /// when none): the history point the snapshot shows.
    ///
    /// ```swift
    /// let position = try tx.changeLogPosition()
    /// ```
    public func changeLogPosition() throws -> ChangeLogPosition {
        try ChangeLog.lastPosition(in: transaction, log: store.log, meta: store.meta)
    }

    /// Whether `position` is a point of this store's history: the origin, or a sequence the log
    /// still holds with the same commit id. A position from another history (a database restored
    /// from an older backup and written again, another database), one without a commit id, one
    /// beyond the last commit, and one pruned from the log are not: a renderer that holds one
    /// must start over.
    ///
    /// ```swift
    /// if try !tx.contains(resumePoint) { sendSnapshot() }
    /// ```
    public func contains(_ position: ChangeLogPosition) throws -> Bool {
        guard position.sequence > 0 else { return true }
        guard position.commitID != nil, position.sequence <= (try lastChangeSequence()) else { return false }
        return try ChangeLog.position(at: position.sequence, in: transaction, log: store.log) == position
    }

    /// The first and last sequence numbers the change log still holds.
    ///
    /// ```swift
    /// if let range = try tx.changeLogRange() { print(range) }
    /// ```
    public func changeLogRange() throws -> ClosedRange<UInt64>? {
        try ChangeLog.range(in: transaction, log: store.log)
    }
}
