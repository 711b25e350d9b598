/// Index upkeep: building, checking and writing the index entries of the records a writer
/// adds, and rebuilding a collection's indexes.
extension StoreWriter {
    /// Builds the entry key of every index of `record` in the scratch encoders, and checks them
    /// (``checkIndexEntries(key:entries:descriptor:during:)``).
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
        try key.withUnsafeBytes { try checkIndexEntries(key: $0, entries: ScratchEntries(scratch), descriptor: descriptor) }
    }

    /// Checks a record's new index entries before its first write: LMDB's key size limit, and
    /// that no other record holds a unique value. Key and entry arrays are made only where a
    /// check needs one (a unique index, an entry over the limit).
    @inlinable
    func checkIndexEntries(key: UnsafeRawBufferPointer, entries: some IndexEntrySource, descriptor: CollectionDescriptor,
                           during write: IndexWrite = .add) throws {
        for position in descriptor.indexDatabases.indices {
            let count = entries.withEntry(position) { $0.count }
            if count > Store.maxKeySize { throw entryTooLong(count, position: position, key: Array(key), descriptor: descriptor, during: write) }
            if descriptor.indexIsUnique[position] {
                try checkUniqueEntry(entries.withEntry(position) { Array($0) }, position: position, key: Array(key), descriptor: descriptor, during: write)
            }
        }
    }

    /// The error for an index entry over LMDB's key size limit.
    @usableFromInline
    func entryTooLong(_ count: Int, position: Int, key: [UInt8], descriptor: CollectionDescriptor, during write: IndexWrite) -> StoreError {
        StoreError(.invalidArgument, operation: write.rawValue, database: "\(descriptor.name)#\(descriptor.indexes[position].name)", path: store.path,
                   message: "the index entry for \(descriptor.describeKey(key)) is \(count) bytes; LMDB keys are limited to \(Store.maxKeySize)")
    }

    /// Holds back one index entry (`entry` ends with the primary key, `primaryKeyCount` bytes) in
    /// `pending`, its index's held-back entries; when the index holds ``WriteScratch/pendingLimit``
    /// of them, writes what every index holds back.
    @inlinable
    func holdBack(_ entry: UnsafeRawBufferPointer, primaryKeyCount: Int, in pending: PendingIndexEntries,
                  descriptor: CollectionDescriptor) throws {
        pending.append(key: entry, primaryKeyCount: primaryKeyCount)
        scratch.hasPending = true
        if pending.entryCount >= scratch.pendingLimit { try writePendingIndexEntries(descriptor: descriptor) }
    }

    /// Writes the index entries a batch held back, each index's in key order.
    ///
    /// Sorting needs no transaction: when one index's entries need a long sort (an index whose
    /// order has nothing to do with the batch's, like an author index over tweets in id order)
    /// and another index has entries to write meanwhile, a helper thread sorts the first while
    /// this thread writes the others, and this thread writes the sorted ones last.
    @usableFromInline
    func writePendingIndexEntries(descriptor: CollectionDescriptor) throws {
        guard scratch.hasPending else { return }
        scratch.hasPending = false
        let transaction = self.writeTransaction
        var positions = descriptor.indexDatabases.indices.filter { !scratch.pending[$0].isEmpty }
        var sorting: SideThread?
        if positions.count > 1,
           let large = positions.first(where: { scratch.pending[$0].entryCount >= PendingIndexEntries.sideSortMinimum && scratch.pending[$0].needsSort() }) {
            let pending = scratch.pending[large]
            sorting = SideThread(name: "TweetieDB index sort") { pending.sortIntoKeyOrder() }
            positions.removeAll { $0 == large }
            positions.append(large)
        }
        // The helper is done with its entries before they are touched again: the sorted index
        // is written last, after a wait, and a failure waits before it discards them.
        do {
            for position in positions {
                if position == positions.last { sorting?.wait() }
                let database = descriptor.indexDatabases[position]
                try scratch.pending[position].forEachInKeyOrder { entry, primaryKey in
                    try transaction.putAppending(rawKey: entry, rawValue: primaryKey, in: database)
                }
            }
        } catch {
            // A failed put leaves LMDB's transaction unusable; drop the other indexes' entries
            // too, so that no later batch writes them into another collection's index.
            sorting?.wait()
            for pending in scratch.pending { pending.discard() }
            throw error
        }
    }

    /// Rebuilds every index of a collection from its records (after a migration or an index change).
    func rebuildIndexes(of descriptor: CollectionDescriptor) throws {
        for database in descriptor.indexDatabases { try writeTransaction.removeAll(in: database) }
        guard !descriptor.indexes.isEmpty else { return }
        var entries: [(Int, [UInt8], [UInt8])] = []
        try writeTransaction.forEach(in: descriptor.records) { key, value in
            entries.append(contentsOf: try descriptor.indexEntries(value, Array(key)))
            return true
        }
        try putIndexEntries(entries, descriptor: descriptor, during: .rebuild)
    }

    /// Stores already-encoded record bytes (from an import) with their index entries (in the
    /// index order; each entry's value is the primary key), under `.modified`: the entries are
    /// checked, then the record goes through ``put(key:bytes:entries:policy:descriptor:storedEntries:)``
    /// like any other. Call ``holdBackIndexEntries()`` first (the import does, for its whole
    /// transaction), so that a new record's non-unique entries wait to be written in key order. A
    /// failure here fails the import, whose transaction is then aborted whole.
    func put(encodedRecord bytes: UnsafeRawBufferPointer, primaryKey: UnsafeRawBufferPointer,
             entries: ChunkEntries, descriptor: CollectionDescriptor) throws -> WriteOutcome {
        precondition(scratch.isBatching, "StoreWriter.put(encodedRecord:) without holdBackIndexEntries()")
        try checkPrimaryKeySize(primaryKey, descriptor: descriptor)
        try checkIndexEntries(key: primaryKey, entries: entries, descriptor: descriptor, during: .import)
        scratch.prepare(indexCount: descriptor.indexDatabases.count)
        return try put(key: primaryKey, bytes: bytes, entries: entries, policy: .modified, descriptor: descriptor) { stored, key in
            try descriptor.buildStoredEntries(stored, key, &scratch.oldEntries)
        }
    }

    /// Starts holding back the non-unique index entries of the new records
    /// ``put(encodedRecord:primaryKey:entries:descriptor:)`` stores, to be written in key
    /// order by ``writePendingIndexEntries(descriptor:)``, as a batch of `add(contentsOf:)` does: an
    /// import's records come in primary-key order, and their index entries one at a time would go
    /// to random places in the index trees. Call ``stopHoldingBack()`` when the import ends, in
    /// every case, so that the writer is left as `add(contentsOf:)` expects it: not batching,
    /// nothing pending. (Each run of a write body has its own writer, so nothing held back can
    /// reach another transaction or a re-run.)
    func holdBackIndexEntries() {
        scratch.isBatching = true
    }

    /// Stops holding back index entries and drops any not written (a failed import's).
    func stopHoldingBack() {
        for pending in scratch.pending { pending.discard() }
        scratch.hasPending = false
        scratch.isBatching = false
    }

    /// Puts index entries built from stored records (`(index position, entry key, primary key)`,
    /// as ``CollectionDescriptor/indexEntries`` makes them for an index rebuild), each
    /// checked by ``checkUniqueEntry(_:position:key:descriptor:during:)`` first.
    func putIndexEntries(_ entries: [(Int, [UInt8], [UInt8])], descriptor: CollectionDescriptor, during write: IndexWrite) throws {
        for (position, entry, primaryKey) in entries {
            try checkUniqueEntry(entry, position: position, key: primaryKey, descriptor: descriptor, during: write)
            try writeTransaction.put(entry, primaryKey, in: descriptor.indexDatabases[position])
        }
    }

    /// The write that puts an index entry, for the operation and the words of its errors.
    @usableFromInline
    enum IndexWrite: String {
        /// ``add(_:update:)`` and ``add(contentsOf:update:)``.
        case add
        /// An NDJSON import.
        case `import`
        /// ``rebuildIndexes(of:)``.
        case rebuild = "rebuild index"
    }

    /// The unique-index check of every write path (add, batch, import, index rebuild): throws a
    /// `constraintViolation` when the index at `position` is unique and already holds `entry` for
    /// a record other than `key`.
    @usableFromInline
    func checkUniqueEntry(_ entry: [UInt8], position: Int, key: [UInt8], descriptor: CollectionDescriptor, during write: IndexWrite) throws {
        guard descriptor.indexIsUnique[position],
              let owner = try writeTransaction.value(for: entry, in: descriptor.indexDatabases[position]), owner != key else { return }
        let name = descriptor.indexes[position].name
        let value = descriptor.describeIndexValue(position, entry)
        let message = switch write {
        case .add: "unique index '\(name)' already holds the value \(value) for the record with key \(descriptor.describeKey(owner)), so \(descriptor.describeKey(key)) cannot use it"
        case .import: "unique index '\(name)' already holds the value \(value) for \(descriptor.describeKey(owner))"
        case .rebuild: "records \(descriptor.describeKey(owner)) and \(descriptor.describeKey(key)) share the value \(value) of the unique index"
        }
        throw StoreError(.constraintViolation, operation: write.rawValue, database: "\(descriptor.name)#\(name)", path: store.path, message: message)
    }
}
