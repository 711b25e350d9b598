/// Batch writes: `add(contentsOf:update:)`, which holds back non-unique index entries and
/// encodes large batches on a second thread (see ``BatchPipeline``).
extension StoreWriter {
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
        // Each record's key, bytes and entries are read where they lie in the chunk, checked
        // where a check can refuse them (a unique index, an entry or a key over LMDB's limit),
        // and the record goes through the one put.
        for number in 0..<pipeline.chunkCount {
            let chunk = pipeline.waitForChunk(number)
            for record in 0..<chunk.count {
                let rawKey = chunk.field(0, ofRecord: record)
                let bytes = chunk.field(1, ofRecord: record)
                let entries = ChunkEntries(chunk, firstRun: record * chunk.fieldsPerRecord + 2)
                try checkPrimaryKeySize(rawKey, descriptor: descriptor)
                try checkIndexEntries(key: rawKey, entries: entries, descriptor: descriptor)
                counts.add(try put(key: rawKey, bytes: bytes, entries: entries, policy: policy, descriptor: descriptor) { stored, key in
                    try self.buildStoredEntries(of: R.self, stored, key: key)
                })
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
    ///
    /// Each record is used where it lies (`inout` on the batch's memory, which nothing writes):
    /// reading it into a local would copy it, retaining and releasing every string and array it
    /// holds, twice per record on two threads. The indexes' components are taken out of
    /// `R.indexes` once per chunk (``IndexEntryComponents``): using an `Index` per record copies
    /// its name and arrays.
    @inlinable
    static func encode<R: Record>(_ records: UnsafeBufferPointer<R>, into chunk: EncodedChunk) -> Bool {
        guard let base = records.baseAddress else { return true }
        let entries = IndexEntryComponents(R.indexes)
        let inPlace = UnsafeMutablePointer(mutating: base)
        var key = KeyEncoder()
        for position in chunk.first..<chunk.limit {
            guard encodeRecord(&inPlace[position], entries: entries, key: &key, into: chunk) else { return false }
            chunk.count += 1
        }
        return true
    }

    /// Encodes one record of a chunk; see ``encode(_:into:)``. (`record` is never written.)
    @inlinable
    static func encodeRecord<R: Record>(_ record: inout R, entries: IndexEntryComponents<R>, key: inout KeyEncoder,
                                  into chunk: EncodedChunk) -> Bool {
        key.reset()
        key.append(record.primaryKey)
        key.bytes.withUnsafeBytes { chunk.append($0) }
        do {
            var writer = RecordWriter(reusing: chunk.recordScratch)
            try record._encodeStored(to: &writer)
            chunk.append(try writer.finishInPlace())
        } catch {
            chunk.failure = error
            return false
        }
        for index in 0..<entries.count {
            chunk.entryScratch.reset()
            entries.appendEntryKey(index, of: record, primaryKey: key.bytes, to: &chunk.entryScratch)
            chunk.entryScratch.bytes.withUnsafeBytes { chunk.append($0) }
        }
        return true
    }
}
