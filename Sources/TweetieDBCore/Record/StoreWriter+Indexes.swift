/// Index upkeep: building, checking and writing the index entries of the records a writer
/// adds, and rebuilding a collection's indexes.
extension StoreWriter {
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
                throw StoreError(.invalidArgument, operation: "add", database: "\(descriptor.name)#\(descriptor.indexes[position].name)", path: store.path,
                                    message: "the index entry for \(descriptor.describeKey(key)) is \(count) bytes; LMDB keys are limited to \(Store.maxKeySize)")
            }
            try checkUniqueEntry(scratch.newEntries[position].bytes, position: position, key: key, descriptor: descriptor, during: .add)
        }
    }

    /// Writes the entries ``prepareIndexEntries(of:key:descriptor:)`` built, replacing those of
    /// `old` where the value changed.
    @inlinable
    func writeIndexEntries<R: Record>(of type: R.Type, key: [UInt8], old: R?, descriptor: CollectionDescriptor) throws {
        let indexes = R.indexes
        let transaction = self.writeTransaction
        for position in indexes.indices {
            let database = descriptor.indexDatabases[position]
            if let old {
                scratch.oldEntries[position].reset()
                indexes[position].appendEntryKey(of: old, primaryKey: key, to: &scratch.oldEntries[position])
                if scratch.oldEntries[position].bytes == scratch.newEntries[position].bytes { continue }
                try scratch.oldEntries[position].bytes.withUnsafeBytes { _ = try transaction.delete(rawKey: $0, in: database) }
            } else if scratch.isBatching && !descriptor.indexIsUnique[position] {
                let pending = scratch.pending[position]
                try scratch.newEntries[position].bytes.withUnsafeBytes {
                    try holdBack($0, primaryKeyCount: key.count, in: pending, descriptor: descriptor)
                }
                continue
            }
            try scratch.newEntries[position].bytes.withUnsafeBytes { entry in
                try key.withUnsafeBytes { try transaction.putValue(rawKey: entry, rawValue: $0, in: database) }
            }
        }
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

    /// Stores already-encoded record bytes (from an import) with their index entries
    /// (`indexEntry(position)`: the entry key of the index at `position`; its value is the primary
    /// key), maintaining the indexes and the change record.
    ///
    /// The record is put first, unless its key is present (`MDB_NOOVERWRITE`; appended when it
    /// sorts last, as an export's keys do): one B-tree search, not a lookup and then a put. A new
    /// record's non-unique entries are held back, so call ``holdBackIndexEntries()`` first (the
    /// import does, for its whole transaction); a unique one, or one over LMDB's key size (whose
    /// put reports the error), is put now. A failure here fails the import, whose transaction is
    /// then aborted whole.
    func put(encodedRecord bytes: UnsafeRawBufferPointer, primaryKey: UnsafeRawBufferPointer,
             indexEntry: (Int) -> UnsafeRawBufferPointer, descriptor: CollectionDescriptor) throws -> WriteOutcome {
        precondition(scratch.isBatching, "StoreWriter.put(encodedRecord:) without holdBackIndexEntries()")
        if primaryKey.count > Store.maxKeySize { try checkPrimaryKeySize(Array(primaryKey), descriptor: descriptor) }
        let indexCount = descriptor.indexDatabases.count
        guard let existing = try writeTransaction.putIfAbsent(rawKey: primaryKey, rawValue: bytes, in: descriptor.records) else {
            scratch.prepare(indexCount: indexCount)
            for position in 0..<indexCount {
                let entry = indexEntry(position)
                if descriptor.indexIsUnique[position] || entry.count > Store.maxKeySize {
                    try putIndexEntries([(position, Array(entry), Array(primaryKey))], descriptor: descriptor, during: .import)
                } else {
                    try holdBack(entry, primaryKeyCount: primaryKey.count, in: scratch.pending[position], descriptor: descriptor)
                }
            }
            recorder.changes.recordInsert(descriptor.name, raw: primaryKey)
            return .inserted
        }
        if compareBytes(existing, bytes) == 0 { return .unchanged }
        // Replaces a stored record: its old entries go (read before any write, which would end
        // `existing`'s validity), then the new ones and the record.
        let key = Array(primaryKey)
        for (position, entry, _) in try descriptor.indexEntries(existing, key) {
            try writeTransaction.delete(entry, in: descriptor.indexDatabases[position])
        }
        try putIndexEntries((0..<indexCount).map { ($0, Array(indexEntry($0)), key) }, descriptor: descriptor, during: .import)
        try writeTransaction.put(rawKey: primaryKey, rawValue: bytes, in: descriptor.records)
        recorder.changes.recordModify(descriptor.name, key)
        return .modified
    }

    /// Starts holding back the non-unique index entries of the new records
    /// ``put(encodedRecord:primaryKey:indexEntry:descriptor:)`` stores, to be written in key
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

    /// Puts index entries built from encoded records (`(index position, entry key, primary key)`,
    /// as ``CollectionDescriptor/indexEntries(_:_:)`` and an import's decoder make them), each
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
