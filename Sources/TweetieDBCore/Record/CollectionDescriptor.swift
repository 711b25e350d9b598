import Foundation

/// Everything the store knows about one registered collection, without its static type.
///
/// Captures, at registration, the closures that need the record type (computing index entries
/// from stored bytes, converting to and from JSON), so that verification, index rebuilds, export
/// and import work on any collection.
@usableFromInline
final class CollectionDescriptor: @unchecked Sendable {
    struct IndexInfo: Sendable, Hashable, Codable {
        var name: String
        var isUnique: Bool
    }

    @usableFromInline let name: String
    let schemaVersion: Int
    let typeID: ObjectIdentifier
    @usableFromInline let typeName: String
    let indexes: [IndexInfo]
    @usableFromInline let records: Database
    @usableFromInline let indexDatabases: [Database]
    /// Per index, whether it is unique (what the write path asks of each index, per record).
    @usableFromInline let indexIsUnique: [Bool]
    /// The index entries (index position, LMDB key, LMDB value) of a stored record, as
    /// ``buildStoredEntries`` builds them.
    let indexEntries: (_ bytes: UnsafeRawBufferPointer, _ primaryKey: [UInt8]) throws -> [(Int, [UInt8], [UInt8])]
    /// Builds a stored record's index entry keys into `entries`, one encoder per index, reused
    /// from record to record (the entries a write replaces, for a writer that does not know the
    /// record type; verification and index rebuilds take them through ``indexEntries``).
    let buildStoredEntries: (_ bytes: UnsafeRawBufferPointer, _ primaryKey: [UInt8], _ entries: inout [KeyEncoder]) throws -> Void
    /// Appends the stored record as a JSON object (for export) with the given writer. Safe to
    /// call from several threads at once, each with its own writer.
    let appendJSON: (_ bytes: UnsafeRawBufferPointer, _ writer: inout RecordJSONWriter, _ out: inout [UInt8]) throws -> Void
    /// A JSON object decoded, validated and encoded for storage into `chunk`, as byte runs: the
    /// primary key, the record bytes, then each index's entry key, in index order (2 + the number
    /// of indexes runs; a failure may leave some of them appended). Runs in one buffer, not three
    /// or more arrays per record: an import's records are decoded on one thread and written on
    /// another, and each array was an allocation there and a cross-thread free here.
    /// Safe to call from several threads at once, each with its own reader and chunk.
    /// `parsed` is the JSON's tape when the caller has parsed it already.
    let encodeJSON: (_ json: UnsafeRawBufferPointer, _ parsed: JSONTape?, _ reader: inout RecordJSONReader, _ chunk: EncodedChunk) throws -> Void
    /// A human-readable primary key.
    @usableFromInline let describeKey: (_ primaryKey: [UInt8]) -> String
    /// A human-readable value of the index at `position`, from one of its entry keys.
    let describeIndexValue: (_ position: Int, _ entry: [UInt8]) -> String

    init<R: Record>(_ type: R.Type, records: Database, indexDatabases: [Database]) {
        name = R.collectionName
        schemaVersion = R.schemaVersion
        typeID = ObjectIdentifier(R.self)
        typeName = String(describing: R.self)
        indexes = R.indexes.map { IndexInfo(name: $0.name, isUnique: $0.isUnique) }
        self.records = records
        self.indexDatabases = indexDatabases
        indexIsUnique = R.indexes.map(\.isUnique)
        // The closures run unspecialized (the record type is only known generically here), so
        // they read the indexes captured once and walk them in a plain loop: `R.indexes` and
        // `enumerated().map` cost more in generic metadata and copies than the entries themselves.
        let indexList = R.indexes
        let buildStoredEntries: (UnsafeRawBufferPointer, [UInt8], inout [KeyEncoder]) throws -> Void = { bytes, primaryKey, entries in
            let record = try RecordDecoder().decode(R.self, from: bytes)
            for position in indexList.indices {
                entries[position].reset()
                indexList[position].appendEntryKey(of: record, primaryKey: primaryKey, to: &entries[position])
            }
        }
        self.buildStoredEntries = buildStoredEntries
        indexEntries = { bytes, primaryKey in
            var entries = [KeyEncoder](repeating: KeyEncoder(), count: indexList.count)
            try buildStoredEntries(bytes, primaryKey, &entries)
            return entries.indices.map { ($0, entries[$0].bytes, primaryKey) }
        }
        let paths = RecordJSONPaths<R>()
        appendJSON = { bytes, writer, out in try paths.append(try RecordDecoder().decode(R.self, from: bytes), &writer, &out) }
        let components = IndexEntryComponents(indexList)
        encodeJSON = { json, parsed, reader, chunk in
            var record = try paths.decodeParsed(json, parsed, &reader)
            guard StoreWriter.encodeRecord(&record, entries: components, key: &chunk.keyScratch, into: chunk) else {
                let failure = chunk.failure!
                chunk.failure = nil
                throw failure
            }
        }
        describeKey = { primaryKey in
            var decoder = KeyDecoder(primaryKey)
            if let key = try? decoder.decode(R.PrimaryKey.self) { return "\(key)" }
            return primaryKey.map { String(format: "%02x", $0) }.joined()
        }
        describeIndexValue = { position, entry in indexList[position].describeValue(entry) }
    }

    /// The error for stored bytes that do not decode as the collection's record type.
    @usableFromInline
    func decodingFailed(_ error: any Error, key: [UInt8], typeName: String, path: String) -> StoreError {
        StoreError(.decodingFailed, operation: "decode", database: name, path: path,
                      message: "the stored record with key \(describeKey(key)) cannot be decoded as \(typeName): \(error)")
    }

    /// The error for an index entry whose record is missing.
    @usableFromInline
    func danglingIndexEntry(key: [UInt8], path: String) -> StoreError {
        StoreError(.corrupted, operation: "query", database: name, path: path,
                      message: "an index entry points to the missing record \(describeKey(key)); run verify")
    }

    func indexDatabase(named indexName: String) throws -> (Int, Database) {
        guard let position = indexes.firstIndex(where: { $0.name == indexName }) else {
            throw StoreError(.invalidArgument, operation: "query", database: name,
                                message: "collection '\(name)' has no index named '\(indexName)' (it has \(indexes.isEmpty ? "none" : indexes.map { "'\($0.name)'" }.joined(separator: ", "))); "
                                    + "a record type lists its indexes in 'indexes'")
        }
        return (position, indexDatabases[position])
    }
}
