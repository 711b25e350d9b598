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
        return try key.withUnsafeBytes { key in
            try put(key: key, bytes: bytes, entries: ScratchEntries(scratch), policy: policy, descriptor: descriptor) { stored, key in
                try self.buildStoredEntries(of: R.self, stored, key: key)
            }
        }
    }

    /// Throws for a primary key longer than LMDB's key size limit (the one check of every write:
    /// an add, a batch and an import; it copies the key only to name it in the error).
    @usableFromInline
    func checkPrimaryKeySize(_ key: UnsafeRawBufferPointer, descriptor: CollectionDescriptor) throws {
        guard key.count <= Store.maxKeySize else {
            throw StoreError(.invalidArgument, operation: "add", database: descriptor.name, path: store.path,
                                message: "the primary key \(descriptor.describeKey(Array(key))) encodes to \(key.count) bytes; keys are limited to \(Store.maxKeySize)")
        }
    }

    /// ``checkPrimaryKeySize(_:descriptor:)`` of an encoded key held in an array.
    @usableFromInline
    func checkPrimaryKeySize(_ key: [UInt8], descriptor: CollectionDescriptor) throws {
        try key.withUnsafeBytes { try checkPrimaryKeySize($0, descriptor: descriptor) }
    }

    /// The error for a record whose `encode(to:)` threw.
    @usableFromInline
    func encodingFailed(_ type: (some Record).Type, key: [UInt8], _ error: any Error, descriptor: CollectionDescriptor) -> StoreError {
        StoreError(.encodingFailed, operation: "add", database: descriptor.name, path: store.path,
                      message: "\(type) with key \(descriptor.describeKey(key)) cannot be encoded: \(error)")
    }

    /// Puts one encoded record under `policy`: the one write of every path that stores records
    /// (``add(_:update:)``, a batch, an import), which only prepare what it takes. The record's
    /// index entries come from `entries`, built and checked by the caller
    /// (``checkIndexEntries(key:entries:descriptor:during:)``), so nothing here refuses the
    /// record after its first write but `.error` on an existing key, which comes before any.
    ///
    /// The record goes in with `MDB_NOOVERWRITE`: a new key costs one B-tree search, and its
    /// non-unique entries are held back while a batch collects them. An existing key hands back
    /// the stored bytes: refused under `.error`, reported when identical, or replaced together
    /// with the index entries that changed, which `storedEntries` builds into
    /// `scratch.oldEntries` from the stored bytes (a decoding error is reported as the stored
    /// record's).
    @inlinable
    func put(key: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer, entries: some IndexEntrySource, policy: UpdatePolicy,
             descriptor: CollectionDescriptor, storedEntries: (_ stored: UnsafeRawBufferPointer, _ key: [UInt8]) throws -> Void) throws -> WriteOutcome {
        let transaction = self.writeTransaction
        let indexDatabases = descriptor.indexDatabases
        guard let stored = try transaction.putIfAbsent(rawKey: key, rawValue: bytes, in: descriptor.records) else {
            for position in indexDatabases.indices {
                try entries.withEntry(position) { entry in
                    if scratch.isBatching && !descriptor.indexIsUnique[position] {
                        try holdBack(entry, primaryKeyCount: key.count, in: scratch.pending[position], descriptor: descriptor)
                    } else {
                        try transaction.putValue(rawKey: entry, rawValue: key, in: indexDatabases[position])
                    }
                }
            }
            recorder.changes.recordInsert(descriptor.name, raw: key)
            return .inserted
        }
        let keyBytes = Array(key)
        if policy == .error {
            throw StoreError(.constraintViolation, operation: "add", database: descriptor.name, path: store.path,
                                message: "a \(descriptor.typeName) with primary key \(descriptor.describeKey(keyBytes)) already exists (update policy .error)")
        }
        if stored.count == bytes.count && compareBytes(stored, bytes) == 0 {
            // Identical bytes, so identical index entries. `.modified` reports nothing; `.all`
            // reports a modification, as it promises, but rewrites nothing: putting the same bytes
            // would still copy the leaf page (and its parents) in LMDB for nothing.
            guard policy == .all else { return .unchanged }
            recorder.changes.recordModify(descriptor.name, keyBytes)
            return .modified
        }
        do {
            try storedEntries(stored, keyBytes)
        } catch {
            throw descriptor.decodingFailed(error, key: keyBytes, typeName: descriptor.typeName, path: store.path)
        }
        // The old entries to replace may be among those a batch holds back (the same key twice
        // in one batch): write those first. (This also ends the zero-copy life of `stored`.)
        if scratch.hasPending { try writePendingIndexEntries(descriptor: descriptor) }
        for position in indexDatabases.indices {
            try entries.withEntry(position) { entry in
                try scratch.oldEntries[position].bytes.withUnsafeBytes { old in
                    if old.count == entry.count && compareBytes(old, entry) == 0 { return }
                    _ = try transaction.delete(rawKey: old, in: indexDatabases[position])
                    try transaction.putValue(rawKey: entry, rawValue: key, in: indexDatabases[position])
                }
            }
        }
        try transaction.putValue(rawKey: key, rawValue: bytes, in: descriptor.records)
        recorder.changes.recordModify(descriptor.name, keyBytes)
        return .modified
    }

    /// Builds the index entries of the stored bytes of an `R` into `scratch.oldEntries`: what
    /// ``put(key:bytes:entries:policy:descriptor:storedEntries:)`` replaces, for a writer that knows the
    /// record type.
    @inlinable
    func buildStoredEntries<R: Record>(of type: R.Type, _ stored: UnsafeRawBufferPointer, key: [UInt8]) throws {
        let old = try R._decodeStored(stored, sharing: nil)
        let indexes = R.indexes
        for position in indexes.indices {
            scratch.oldEntries[position].reset()
            indexes[position].appendEntryKey(of: old, primaryKey: key, to: &scratch.oldEntries[position])
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
