import Foundation

/// What opening a store checks and writes in `_meta`: the format marker and each collection's
/// schema version and index definitions (migrations and index rebuilds when they changed).
extension Store {
    /// Reads the format of an existing database without writing anything; returns whether it has
    /// TweetieDB's metadata (`false` for an empty LMDB file, whose creation did not finish).
    static func checkFormat(_ environment: Environment) throws -> Bool {
        let meta: Database
        do {
            meta = try environment.database(named: metaName, create: false)
        } catch let error as StoreError where error.code == .notFound {
            // No metadata. An LMDB file with other named databases is not ours; an empty one is fine.
            let main = try environment.database(named: nil, create: false)
            let entries = try environment.read { try $0.stats(of: main).entries }
            if entries > 0 {
                throw StoreError(.notADatabase, operation: "open", path: environment.path,
                                    message: "this LMDB database was not created by TweetieDB (it has no _meta database); refusing to change it")
            }
            return false
        } catch let error as StoreError where error.code == .incompatible {
            throw StoreError(.notADatabase, operation: "open", path: environment.path,
                                message: "this LMDB database was not created by TweetieDB ('_meta' is not a database); refusing to change it")
        }
        let format = try environment.read { tx in
            try tx.withValue(for: formatKey, in: meta) { bytes -> Int in
                guard bytes.count == 4 else { return -1 }
                return Int(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
            }
        }
        guard let format else { return true }
        guard format >= 0 else {
            throw StoreError(.notADatabase, operation: "open", path: environment.path, message: "the format marker in _meta is corrupt")
        }
        guard format <= formatVersion else {
            throw StoreError(.newerFormat, operation: "open", path: environment.path,
                                message: "the database has format version \(format), but this TweetieDB reads up to version \(formatVersion); upgrade TweetieDB (the database was left untouched)")
        }
        return true
    }

    struct CollectionMetadata: Codable, Equatable {
        var schemaVersion: Int
        var indexes: [CollectionDescriptor.IndexInfo]
    }

    static var formatBytes: [UInt8] {
        withUnsafeBytes(of: UInt32(Store.formatVersion).bigEndian) { Array($0) }
    }

    static func metadataKey(of descriptor: CollectionDescriptor) -> [UInt8] {
        Array("collection/\(descriptor.name)".utf8)
    }

    static func storedMetadata(for key: [UInt8], in tx: some ReadableTransaction, meta: Database) throws -> CollectionMetadata? {
        try tx.value(for: key, in: meta).flatMap { try? JSONDecoder().decode(CollectionMetadata.self, from: Data($0)) }
    }

    /// Whether the format marker and every collection's schema version and indexes are already
    /// what this open needs, read in a read transaction: an open with nothing to write never takes
    /// the write lock, so it never waits for a writer of another process.
    func schemaIsCurrent() throws -> Bool {
        try environment.read { tx in
            guard try tx.value(for: Store.formatKey, in: meta) == Store.formatBytes else { return false }
            for descriptor in collectionsByName.values {
                let current = CollectionMetadata(schemaVersion: descriptor.schemaVersion, indexes: descriptor.indexes)
                guard try Store.storedMetadata(for: Store.metadataKey(of: descriptor), in: tx, meta: meta) == current else { return false }
            }
            return true
        }
    }

    func prepareSchema(migrations: [Migration]) throws {
        guard try !schemaIsCurrent() else { return }
        let byName = Dictionary(grouping: migrations, by: \.collectionName)
        try write { writer in
            let tx = writer.writeTransaction
            let format = Store.formatBytes
            if try tx.value(for: Store.formatKey, in: meta) != format {
                try tx.put(Store.formatKey, format, in: meta)
            }
            for descriptor in collectionsByName.values.sorted(by: { $0.name < $1.name }) {
                let key = Store.metadataKey(of: descriptor)
                let current = CollectionMetadata(schemaVersion: descriptor.schemaVersion, indexes: descriptor.indexes)
                let stored = try Store.storedMetadata(for: key, in: tx, meta: meta)
                guard stored != current else { continue }
                if let stored {
                    if stored.schemaVersion > current.schemaVersion {
                        throw StoreError(.newerFormat, operation: "open", database: descriptor.name, path: path,
                                            message: "collection '\(descriptor.name)' has schema version \(stored.schemaVersion) on disk, newer than \(descriptor.typeName)'s version \(current.schemaVersion)")
                    }
                    if stored.schemaVersion < current.schemaVersion {
                        for migration in byName[descriptor.name] ?? [] {
                            do {
                                try migration.body(writer, stored.schemaVersion, current.schemaVersion)
                            } catch {
                                throw StoreError(.migrationFailed, operation: "migrate", database: descriptor.name, path: path,
                                                    message: "migration from schema version \(stored.schemaVersion) to \(current.schemaVersion) failed: \(error)")
                            }
                        }
                    }
                    try writer.rebuildIndexes(of: descriptor)
                }
                try tx.put(key, Array(try JSONEncoder().encode(current)), in: meta)
            }
        }
    }
}
