/// Reads available in every store transaction, read-only or read-write.
///
/// ```swift
/// func newest(_ tx: some StoreReading) throws -> [Tweet] {
///     try tx.fetch(Query<Tweet>().sorted(byIndex: "created").limit(10))
/// }
/// ```
public protocol StoreReading {
    /// The LMDB transaction underneath.
    associatedtype Transaction: ReadableTransaction
    /// The store.
    ///
    /// ```swift
    /// print(tx.store.path)
    /// ```
    var store: Store { get }
    /// The LMDB transaction underneath.
    ///
    /// ```swift
    /// print(tx.transaction.id)
    /// ```
    var transaction: Transaction { get }
}

/// A read-only store transaction: one consistent snapshot of every collection.
///
/// ```swift
/// let (count, newest) = try store.read { tx in
///     (try tx.count(Tweet.self), try tx.fetch(Query<Tweet>().sorted(byIndex: "created").limit(1)))
/// }
/// ```
public struct StoreReader: StoreReading {
    /// The store.
    ///
    /// ```swift
    /// print(tx.store.collectionNames)
    /// ```
    public let store: Store
    /// The LMDB transaction underneath.
    ///
    /// ```swift
    /// print(tx.transaction.id)
    /// ```
    public let transaction: ReadTransaction
}

/// A read-write store transaction. Everything it does commits together or not at all, and it
/// records exactly which records it inserted, modified and deleted.
///
/// ```swift
/// try store.write { tx in
///     try tx.add(contentsOf: fetched, update: .modified)
///     try tx.delete(Tweet.self, key: 42)
/// }
/// ```
public final class StoreWriter: StoreReading {
    /// The store.
    ///
    /// ```swift
    /// print(tx.store.path)
    /// ```
    public let store: Store
    /// The LMDB transaction underneath.
    ///
    /// ```swift
    /// print(tx.transaction.id)
    /// ```
    public let transaction: WriteTransaction
    @usableFromInline let recorder = ChangeRecorderBox()
    @usableFromInline let scratch = WriteScratch()

    init(store: Store, transaction: WriteTransaction) {
        self.store = store
        self.transaction = transaction
    }

    /// The changes this transaction made so far.
    ///
    /// ```swift
    /// let changes = try store.write { tx in try tx.add(tweet); return tx.changes }
    /// ```
    public var changes: TransactionChanges { recorder.changes }
}

/// A reference box so that the recorder can be mutated through the `StoreWriter` value. Only the
/// writer's thread touches it, so its accesses skip runtime exclusivity checks.
@usableFromInline
final class ChangeRecorderBox {
    @exclusivity(unchecked) @usableFromInline var changes = TransactionChanges()
    @usableFromInline init() {}
}

/// Buffers a write transaction reuses for every record it adds: the encoded record and, per
/// index, the new and the old entry key. Only the writer's thread touches them.
@usableFromInline
final class WriteScratch {
    @usableFromInline let record = RecordByteBuffer(capacity: 512)
    @exclusivity(unchecked) @usableFromInline var newEntries: [KeyEncoder] = []
    @exclusivity(unchecked) @usableFromInline var oldEntries: [KeyEncoder] = []
    /// Per index, the non-unique entries of new records that a batch write holds back to write
    /// in key order (see ``PendingIndexEntries``); used while ``isBatching``.
    @exclusivity(unchecked) @usableFromInline var pending: [PendingIndexEntries] = []
    /// Whether an ``StoreWriter/add(contentsOf:update:)`` batch is collecting index entries.
    @exclusivity(unchecked) @usableFromInline var isBatching = false
    /// Whether some entries wait in ``pending``.
    @exclusivity(unchecked) @usableFromInline var hasPending = false
    /// How many entries one index holds back at most: at this many, a batch writes what it holds
    /// (in key order) and goes on, so that a batch of millions of records keeps its memory
    /// bounded (about 50 MB per index for 2^20 tweet-sized entries). Internal: tests lower it.
    @exclusivity(unchecked) @usableFromInline var pendingLimit = 1 << 20
    @usableFromInline init() {}

    /// Makes room for `count` indexes.
    @inlinable @inline(__always)
    func prepare(indexCount count: Int) {
        while newEntries.count < count {
            newEntries.append(KeyEncoder())
            oldEntries.append(KeyEncoder())
            pending.append(PendingIndexEntries())
        }
    }
}

/// What ``StoreWriter/add(_:update:)`` did.
///
/// ```swift
/// if try tx.add(tweet, update: .modified) == .unchanged { print("already up to date") }
/// ```
public enum WriteOutcome: Sendable, Hashable {
    /// The record was new.
    case inserted
    /// The record existed and was overwritten.
    case modified
    /// The record existed with identical bytes (policy `.modified`): nothing was written.
    case unchanged
}

/// Counts of what a batch write did.
///
/// ```swift
/// let counts = try store.write { tx in try tx.add(contentsOf: tweets, update: .modified) }
/// print(counts.inserted, counts.modified, counts.unchanged)
/// ```
public struct WriteCounts: Sendable, Hashable, Codable {
    /// Records that were new.
    ///
    /// ```swift
    /// print(counts.inserted)
    /// ```
    public var inserted = 0
    /// Records that were overwritten.
    ///
    /// ```swift
    /// print(counts.modified)
    /// ```
    public var modified = 0
    /// Records already stored with identical bytes.
    ///
    /// ```swift
    /// print(counts.unchanged)
    /// ```
    public var unchanged = 0

    /// Zero counts.
    ///
    /// ```swift
    /// var counts = WriteCounts()
    /// ```
    public init() {}

    @usableFromInline
    mutating func add(_ outcome: WriteOutcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .modified: modified += 1
        case .unchanged: unchanged += 1
        }
    }
}

// MARK: - Reading

extension StoreReading {
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
    /// let page = try tx.fetch(Query<Tweet>().sorted(byIndex: "created").limit(50))
    /// ```
    @inlinable
    public func fetch<R: Record>(_ query: Query<R>) throws -> [R] {
        var records: [R] = []
        try walkRecords(query, presizing: true, reserve: { records.reserveCapacity($0) }) { record in records.append(record); return true }
        return records
    }

    /// The number of records matching `query` (after offset and limit).
    ///
    /// ```swift
    /// let mine = try tx.fetchCount(Query<Tweet>().filter(index: "author", equals: "icanzilb"))
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
        let scan = try ScanPlan.make(query, descriptor: descriptor)
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
                    throw DatabaseError(.corrupted, operation: "query", database: descriptor.name, path: store.path,
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

    /// The first and last sequence numbers the change log still holds.
    ///
    /// ```swift
    /// if let range = try tx.changeLogRange() { print(range) }
    /// ```
    public func changeLogRange() throws -> ClosedRange<UInt64>? {
        try ChangeLog.range(in: transaction, log: store.log)
    }
}

// MARK: - Writing

extension StoreWriter {
    /// Adds `record`, or updates the stored one with the same primary key according to `policy`
    /// (Realm's `add(_:update:)`). Indexes are updated in the same transaction.
    ///
    /// Throws ``DatabaseError/Code-swift.enum/constraintViolation`` for an existing key under
    /// `.error`, or a duplicate value in a unique index; the whole transaction then rolls back.
    ///
    /// ```swift
    /// try tx.add(tweet, update: .modified)
    /// ```
    @discardableResult
    @inlinable
    public func add<R: Record>(_ record: R, update policy: UpdatePolicy = .error) throws -> WriteOutcome {
        let descriptor = try store.descriptor(for: R.self)
        return try add(record, policy: policy, descriptor: descriptor)
    }

    /// Adds or updates every record of `records`, in order; see ``add(_:update:)``.
    ///
    /// An array (any sequence with contiguous storage) is written as a batch:
    /// - The non-unique index entries of new records are written together at the end, in key
    ///   order, and keys that sort after an index's (or the collection's) last key are appended
    ///   with `MDB_APPEND`: no tree search, and full pages.
    /// - From 1,024 records on, records are encoded — `encode(to:)` and the index closures — on a
    ///   second thread, a few chunks ahead of this one, which checks and puts them. Both run
    ///   `Sendable` code only; neither should depend on the thread it runs on.
    /// - The outcome is the same as adding the records one by one: a record that fails (encoding,
    ///   key size, a unique value, `.error` on an existing key) throws after every record before
    ///   it is written with its index entries, and nothing of it or after it is.
    ///
    /// ```swift
    /// let counts = try tx.add(contentsOf: tweets, update: .modified)
    /// ```
    @discardableResult
    @inlinable
    public func add<R: Record, S: Sequence<R>>(contentsOf records: S, update policy: UpdatePolicy = .error) throws -> WriteCounts {
        let descriptor = try store.descriptor(for: R.self)
        var counts = WriteCounts()
        // Contiguous input (an array) is read in place: iterating it would copy every record.
        // No code of the caller's runs while it is read, so the new records' non-unique index
        // entries can wait and go in together, in key order, at the end; and a large batch can be
        // encoded on a second thread while this one writes (see BatchPipeline).
        let done: Void? = try records.withContiguousStorageIfAvailable { buffer in
            let holdsBack = buffer.count > 1 && !scratch.isBatching && descriptor.indexIsUnique.contains(false)
            if holdsBack {
                scratch.isBatching = true
                scratch.prepare(indexCount: descriptor.indexDatabases.count)
                for position in descriptor.indexIsUnique.indices where !descriptor.indexIsUnique[position] {
                    scratch.pending[position].expect(min(buffer.count, scratch.pendingLimit))
                }
            }
            defer { if holdsBack { scratch.isBatching = false } }
            do {
                if buffer.count >= BatchPipeline.minimumBatch {
                    try addPipelined(buffer, policy: policy, descriptor: descriptor, counts: &counts)
                } else {
                    for position in buffer.indices { counts.add(try add(buffer[position], policy: policy, descriptor: descriptor)) }
                }
            } catch {
                // The records written so far keep their entries: the caller may catch the error
                // and go on with the transaction.
                try writePendingIndexEntries(descriptor: descriptor)
                throw error
            }
            try writePendingIndexEntries(descriptor: descriptor)
        }
        if done == nil {
            for record in records { counts.add(try add(record, policy: policy, descriptor: descriptor)) }
        }
        return counts
    }

    /// Adds one record. Everything that can refuse the record (encoding, key sizes, unique
    /// indexes) is checked before the first write, so a thrown error leaves nothing of it behind.
    /// The record goes in with `MDB_NOOVERWRITE`: a new key costs one B-tree search, and an
    /// existing key hands back the stored bytes to compare or decode.
    @inlinable
    func add<R: Record>(_ record: borrowing R, policy: UpdatePolicy, descriptor: CollectionDescriptor) throws -> WriteOutcome {
        let key = record.encodedPrimaryKey
        try checkPrimaryKeySize(key, descriptor: descriptor)
        let bytes: UnsafeRawBufferPointer
        do {
            var writer = RecordWriter(reusing: scratch.record)
            try record._encodeStored(to: &writer)
            bytes = try writer.finishInPlace()
        } catch {
            throw encodingFailed(R.self, key: key, error, descriptor: descriptor)
        }
        try prepareIndexEntries(of: record, key: key, descriptor: descriptor)
        return try putRecord(R.self, key: key, bytes: bytes, policy: policy, descriptor: descriptor)
    }

    /// Adds the records of a large batch, encoded a few chunks ahead on a second thread (see
    /// ``BatchPipeline``): this thread checks and puts each record as ``add(_:policy:descriptor:)``
    /// does, in the batch's order, and throws at the first record that fails, having written the
    /// ones before it.
    @inlinable
    func addPipelined<R: Record>(_ records: UnsafeBufferPointer<R>, policy: UpdatePolicy, descriptor: CollectionDescriptor,
                                 counts: inout WriteCounts) throws {
        let indexCount = descriptor.indexDatabases.count
        scratch.prepare(indexCount: indexCount)
        let source = SendableRecords(records)
        let pipeline = BatchPipeline(recordCount: records.count, fieldsPerRecord: 2 + indexCount) { chunk in
            StoreWriter.encode(source.records, into: chunk)
        }
        pipeline.start()
        defer { pipeline.stop() }
        for number in 0..<pipeline.chunkCount {
            let chunk = pipeline.waitForChunk(number)
            for record in 0..<chunk.count {
                let key = Array(chunk.field(0, ofRecord: record))
                try checkPrimaryKeySize(key, descriptor: descriptor)
                for position in 0..<indexCount {
                    scratch.newEntries[position].reset()
                    scratch.newEntries[position].appendBytes(chunk.field(2 + position, ofRecord: record))
                }
                try checkIndexEntries(key: key, descriptor: descriptor)
                counts.add(try putRecord(R.self, key: key, bytes: chunk.field(1, ofRecord: record), policy: policy, descriptor: descriptor))
            }
            if let failure = chunk.failure {
                let key = records[chunk.first + chunk.count].encodedPrimaryKey
                try checkPrimaryKeySize(key, descriptor: descriptor)
                throw encodingFailed(R.self, key: key, failure, descriptor: descriptor)
            }
            pipeline.release()
        }
    }

    /// Encodes the records of `chunk` (its primary key, its bytes, its index entries), on the
    /// batch's encoder thread; returns `false` at the first record that fails to encode.
    @inlinable
    static func encode<R: Record>(_ records: UnsafeBufferPointer<R>, into chunk: EncodedChunk) -> Bool {
        let indexes = R.indexes
        for position in chunk.first..<chunk.limit {
            let record = records[position]
            let key = record.encodedPrimaryKey
            key.withUnsafeBytes { chunk.append($0) }
            do {
                var writer = RecordWriter(reusing: chunk.recordScratch)
                try record._encodeStored(to: &writer)
                chunk.append(try writer.finishInPlace())
            } catch {
                chunk.failure = error
                return false
            }
            for index in indexes.indices {
                chunk.entryScratch.reset()
                indexes[index].appendEntryKey(of: record, primaryKey: key, to: &chunk.entryScratch)
                chunk.entryScratch.bytes.withUnsafeBytes { chunk.append($0) }
            }
            chunk.count += 1
        }
        return true
    }

    /// Throws for a primary key longer than LMDB's key size limit.
    @usableFromInline
    func checkPrimaryKeySize(_ key: [UInt8], descriptor: CollectionDescriptor) throws {
        guard key.count <= Store.maxKeySize else {
            throw DatabaseError(.invalidArgument, operation: "add", database: descriptor.name, path: store.path,
                                message: "the primary key \(descriptor.describeKey(key)) encodes to \(key.count) bytes; keys are limited to \(Store.maxKeySize)")
        }
    }

    /// The error for a record whose `encode(to:)` threw.
    @usableFromInline
    func encodingFailed(_ type: (some Record).Type, key: [UInt8], _ error: any Error, descriptor: CollectionDescriptor) -> DatabaseError {
        DatabaseError(.encodingFailed, operation: "add", database: descriptor.name, path: store.path,
                      message: "\(type) with key \(descriptor.describeKey(key)) cannot be encoded: \(error)")
    }

    /// Puts one encoded record whose index entries ``prepareIndexEntries(of:key:descriptor:)``
    /// (or a batch's encoder) built and checked, according to `policy`. The record goes in with
    /// `MDB_NOOVERWRITE` (or `MDB_APPEND`): a new key costs one B-tree search at most, and an
    /// existing key hands back the stored bytes to compare or decode.
    @inlinable
    func putRecord<R: Record>(_ type: R.Type, key: [UInt8], bytes: UnsafeRawBufferPointer, policy: UpdatePolicy,
                              descriptor: CollectionDescriptor) throws -> WriteOutcome {
        let transaction = self.transaction
        let existing = try key.withUnsafeBytes { try transaction.putIfAbsent(rawKey: $0, rawValue: bytes, in: descriptor.records) }
        guard let stored = existing else {
            try writeIndexEntries(of: R.self, key: key, old: nil, descriptor: descriptor)
            recorder.changes.recordInsert(descriptor.name, key)
            return .inserted
        }
        if policy == .error {
            throw DatabaseError(.constraintViolation, operation: "add", database: descriptor.name, path: store.path,
                                message: "a \(R.self) with primary key \(descriptor.describeKey(key)) already exists (update policy .error)")
        }
        if stored.count == bytes.count && compareBytes(stored, bytes) == 0 {
            // Identical bytes, so identical index entries. `.modified` reports nothing; `.all`
            // reports a modification, as it promises, but rewrites nothing: putting the same bytes
            // would still copy the leaf page (and its parents) in LMDB for nothing.
            guard policy == .all else { return .unchanged }
            recorder.changes.recordModify(descriptor.name, key)
            return .modified
        }
        let old: R
        do {
            old = try R._decodeStored(stored, sharing: nil)
        } catch {
            throw descriptor.decodingFailed(error, key: key, typeName: "\(R.self)", path: store.path)
        }
        // The old entries to replace may be among those a batch holds back (the same key twice
        // in one batch): write those first. (This also ends the zero-copy life of `stored`.)
        if scratch.hasPending { try writePendingIndexEntries(descriptor: descriptor) }
        try writeIndexEntries(of: R.self, key: key, old: old, descriptor: descriptor)
        try key.withUnsafeBytes { try transaction.putValue(rawKey: $0, rawValue: bytes, in: descriptor.records) }
        recorder.changes.recordModify(descriptor.name, key)
        return .modified
    }

    /// Builds the entry key of every index of `record` in the scratch encoders, and checks them
    /// (``checkIndexEntries(key:descriptor:)``).
    @inlinable
    func prepareIndexEntries<R: Record>(of record: borrowing R, key: [UInt8], descriptor: CollectionDescriptor) throws {
        let indexes = R.indexes
        guard !indexes.isEmpty else { return }
        scratch.prepare(indexCount: indexes.count)
        // (Indexes are used in place, `indexes[position]`, not copied out: a copy retains and
        // releases its name and closures for every record.)
        for position in indexes.indices {
            scratch.newEntries[position].reset()
            indexes[position].appendEntryKey(of: record, primaryKey: key, to: &scratch.newEntries[position])
        }
        try checkIndexEntries(key: key, descriptor: descriptor)
    }

    /// Checks the entries in the scratch encoders: LMDB's key size limit, and that no other
    /// record holds a unique value.
    @usableFromInline
    func checkIndexEntries(key: [UInt8], descriptor: CollectionDescriptor) throws {
        for position in descriptor.indexDatabases.indices {
            let count = scratch.newEntries[position].bytes.count
            guard count <= Store.maxKeySize else {
                throw DatabaseError(.invalidArgument, operation: "add", database: "\(descriptor.name)#\(descriptor.indexes[position].name)", path: store.path,
                                    message: "the index entry for \(descriptor.describeKey(key)) is \(count) bytes; LMDB keys are limited to \(Store.maxKeySize)")
            }
            if descriptor.indexIsUnique[position],
               let owner = try transaction.value(for: scratch.newEntries[position].bytes, in: descriptor.indexDatabases[position]), owner != key {
                let name = descriptor.indexes[position].name
                throw DatabaseError(.constraintViolation, operation: "add", database: "\(descriptor.name)#\(name)", path: store.path,
                                    message: "unique index '\(name)' already holds this value for the record with key \(descriptor.describeKey(owner)), so \(descriptor.describeKey(key)) cannot use it")
            }
        }
    }

    /// Writes the entries ``prepareIndexEntries(of:key:descriptor:)`` built, replacing those of
    /// `old` where the value changed.
    @inlinable
    func writeIndexEntries<R: Record>(of type: R.Type, key: [UInt8], old: R?, descriptor: CollectionDescriptor) throws {
        let indexes = R.indexes
        let transaction = self.transaction
        for position in indexes.indices {
            let database = descriptor.indexDatabases[position]
            if let old {
                scratch.oldEntries[position].reset()
                indexes[position].appendEntryKey(of: old, primaryKey: key, to: &scratch.oldEntries[position])
                if scratch.oldEntries[position].bytes == scratch.newEntries[position].bytes { continue }
                try scratch.oldEntries[position].bytes.withUnsafeBytes { _ = try transaction.delete(rawKey: $0, in: database) }
            } else if scratch.isBatching && !descriptor.indexIsUnique[position] {
                let pending = scratch.pending[position]
                scratch.newEntries[position].bytes.withUnsafeBytes { pending.append(key: $0, primaryKeyCount: key.count) }
                scratch.hasPending = true
                if pending.entryCount >= scratch.pendingLimit { try writePendingIndexEntries(descriptor: descriptor) }
                continue
            }
            try scratch.newEntries[position].bytes.withUnsafeBytes { entry in
                try key.withUnsafeBytes { try transaction.putValue(rawKey: entry, rawValue: $0, in: database) }
            }
        }
    }

    /// Writes the index entries a batch held back, each index's in key order.
    @usableFromInline
    func writePendingIndexEntries(descriptor: CollectionDescriptor) throws {
        guard scratch.hasPending else { return }
        scratch.hasPending = false
        let transaction = self.transaction
        do {
            for position in descriptor.indexDatabases.indices where !scratch.pending[position].isEmpty {
                let database = descriptor.indexDatabases[position]
                try scratch.pending[position].forEachInKeyOrder { entry, primaryKey in
                    try transaction.putAppending(rawKey: entry, rawValue: primaryKey, in: database)
                }
            }
        } catch {
            // A failed put leaves LMDB's transaction unusable; drop the other indexes' entries
            // too, so that no later batch writes them into another collection's index.
            for pending in scratch.pending { pending.discard() }
            throw error
        }
    }

    /// Deletes the record with primary key `key`; returns whether it existed.
    ///
    /// ```swift
    /// try tx.delete(Tweet.self, key: 42)
    /// ```
    @discardableResult
    public func delete<R: Record>(_ type: R.Type, key: R.PrimaryKey) throws -> Bool {
        let descriptor = try store.descriptor(for: type)
        return try delete(type, encodedKey: R.encode(primaryKey: key), descriptor: descriptor)
    }

    func delete<R: Record>(_ type: R.Type, encodedKey key: [UInt8], descriptor: CollectionDescriptor) throws -> Bool {
        guard let old = try get(type, encodedKey: key, descriptor: descriptor) else { return false }
        for (position, index) in R.indexes.enumerated() {
            let entry = CollectionDescriptor.indexEntry(index.value(of: old), primaryKey: key, unique: index.isUnique)
            try transaction.delete(entry.key, in: descriptor.indexDatabases[position])
        }
        try transaction.delete(key, in: descriptor.records)
        recorder.changes.recordDelete(descriptor.name, key)
        return true
    }

    /// Deletes every record matching `query`; returns how many.
    ///
    /// ```swift
    /// try tx.delete(Query<Tweet>().filter(index: "author", equals: "spammer"))
    /// ```
    @discardableResult
    public func delete<R: Record>(_ query: Query<R>) throws -> Int {
        let descriptor = try store.descriptor(for: R.self)
        var keys: [[UInt8]] = []
        try forEachEntry(query) { _, key, _ in keys.append(key); return true }
        for key in keys { _ = try delete(R.self, encodedKey: key, descriptor: descriptor) }
        return keys.count
    }

    /// Deletes every record of the collection; returns how many.
    ///
    /// ```swift
    /// try tx.deleteAll(Tweet.self)
    /// ```
    @discardableResult
    public func deleteAll<R: Record>(_ type: R.Type) throws -> Int {
        try deleteAll(in: store.descriptor(for: type))
    }

    /// Deletes every record of a collection, recording each deletion; returns how many.
    @discardableResult
    func deleteAll(in descriptor: CollectionDescriptor) throws -> Int {
        var keys: [[UInt8]] = []
        try transaction.forEach(in: descriptor.records) { key, _ in keys.append(Array(key)); return true }
        try transaction.removeAll(in: descriptor.records)
        for database in descriptor.indexDatabases { try transaction.removeAll(in: database) }
        for key in keys { recorder.changes.recordDelete(descriptor.name, key) }
        return keys.count
    }

    /// Rebuilds every index of a collection from its records (after a migration or an index change).
    func rebuildIndexes(of descriptor: CollectionDescriptor) throws {
        for database in descriptor.indexDatabases { try transaction.removeAll(in: database) }
        guard !descriptor.indexes.isEmpty else { return }
        var entries: [(Int, [UInt8], [UInt8])] = []
        try transaction.forEach(in: descriptor.records) { key, value in
            entries.append(contentsOf: try descriptor.indexEntries(value, Array(key)))
            return true
        }
        for (position, key, value) in entries {
            let database = descriptor.indexDatabases[position]
            if descriptor.indexes[position].isUnique, let owner = try transaction.value(for: key, in: database), owner != value {
                throw DatabaseError(.constraintViolation, operation: "rebuild index", database: "\(descriptor.name)#\(descriptor.indexes[position].name)", path: store.path,
                                    message: "records \(descriptor.describeKey(owner)) and \(descriptor.describeKey(value)) share a value of the unique index")
            }
            try transaction.put(key, value, in: database)
        }
    }
}
