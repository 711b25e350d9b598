/// A read-write store transaction. Everything it does commits together or not at all, and it
/// records exactly which records it inserted, modified and deleted.
///
/// ```swift
/// try store.write { tx in
///     try tx.add(contentsOf: fetched, update: .modified)
///     try tx.delete(Tweet.self, key: 42)
/// }
/// ```
public final class StoreWriter: StoreReader {
    /// The LMDB write transaction underneath (internal), the one whose snapshot
    /// ``StoreReader/transaction`` reads.
    @usableFromInline let writeTransaction: WriteTransaction
    @usableFromInline let recorder = ChangeRecorderBox()
    @usableFromInline let scratch = WriteScratch()

    init(store: Store, transaction: WriteTransaction) {
        writeTransaction = transaction
        super.init(store: store, transaction: ReadTransaction(context: writeTransaction.context))
    }

    /// The changes this transaction made so far.
    ///
    /// ```swift
    /// let changes = try store.write { tx in try tx.add(tweet); return tx.changes }
    /// ```
    public var changes: TransactionChanges { recorder.changes }
}

extension StoreWriter {
    /// Adds `record`, or updates the stored one with the same primary key according to `policy`
    /// (Realm's `add(_:update:)`). Indexes are updated in the same transaction.
    ///
    /// Throws ``StoreError/Code-swift.enum/constraintViolation`` for an existing key under
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

    /// Throws for a primary key longer than LMDB's key size limit.
    @usableFromInline
    func checkPrimaryKeySize(_ key: [UInt8], descriptor: CollectionDescriptor) throws {
        guard key.count <= Store.maxKeySize else {
            throw StoreError(.invalidArgument, operation: "add", database: descriptor.name, path: store.path,
                                message: "the primary key \(descriptor.describeKey(key)) encodes to \(key.count) bytes; keys are limited to \(Store.maxKeySize)")
        }
    }

    /// The error for a record whose `encode(to:)` threw.
    @usableFromInline
    func encodingFailed(_ type: (some Record).Type, key: [UInt8], _ error: any Error, descriptor: CollectionDescriptor) -> StoreError {
        StoreError(.encodingFailed, operation: "add", database: descriptor.name, path: store.path,
                      message: "\(type) with key \(descriptor.describeKey(key)) cannot be encoded: \(error)")
    }

    /// Puts one encoded record whose index entries ``prepareIndexEntries(of:key:descriptor:)``
    /// (or a batch's encoder) built and checked, according to `policy`. The record goes in with
    /// `MDB_NOOVERWRITE` (or `MDB_APPEND`): a new key costs one B-tree search at most, and an
    /// existing key hands back the stored bytes to compare or decode.
    @inlinable
    func putRecord<R: Record>(_ type: R.Type, key: [UInt8], bytes: UnsafeRawBufferPointer, policy: UpdatePolicy,
                              descriptor: CollectionDescriptor) throws -> WriteOutcome {
        let transaction = self.writeTransaction
        let existing = try key.withUnsafeBytes { try transaction.putIfAbsent(rawKey: $0, rawValue: bytes, in: descriptor.records) }
        guard let stored = existing else {
            try writeIndexEntries(of: R.self, key: key, old: nil, descriptor: descriptor)
            recorder.changes.recordInsert(descriptor.name, key)
            return .inserted
        }
        return try replaceRecord(R.self, stored: stored, key: key, bytes: bytes, policy: policy, descriptor: descriptor)
    }

    /// The second half of ``putRecord(_:key:bytes:policy:descriptor:)``, for a key that is
    /// already stored (`stored`, as `MDB_NOOVERWRITE` handed it back): refuses it under `.error`,
    /// reports identical bytes, or replaces the record and the index entries that changed.
    @inlinable
    func replaceRecord<R: Record>(_ type: R.Type, stored: UnsafeRawBufferPointer, key: [UInt8], bytes: UnsafeRawBufferPointer,
                                  policy: UpdatePolicy, descriptor: CollectionDescriptor) throws -> WriteOutcome {
        let transaction = self.writeTransaction
        if policy == .error {
            throw StoreError(.constraintViolation, operation: "add", database: descriptor.name, path: store.path,
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
            try writeTransaction.delete(index.entryKey(of: old, primaryKey: key), in: descriptor.indexDatabases[position])
        }
        try writeTransaction.delete(key, in: descriptor.records)
        recorder.changes.recordDelete(descriptor.name, key)
        return true
    }

    /// Deletes every record matching `query`; returns how many.
    ///
    /// ```swift
    /// try tx.delete(Query<Tweet>().filter(Tweet.byAuthor, equals: "spammer"))
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
        try writeTransaction.forEach(in: descriptor.records) { key, _ in keys.append(Array(key)); return true }
        try writeTransaction.removeAll(in: descriptor.records)
        for database in descriptor.indexDatabases { try writeTransaction.removeAll(in: database) }
        for key in keys { recorder.changes.recordDelete(descriptor.name, key) }
        return keys.count
    }
}
