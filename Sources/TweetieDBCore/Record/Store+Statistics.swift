import Foundation

/// A description of a store's contents and of the LMDB environment under it.
///
/// ```swift
/// let stats = try store.statistics()
/// print(stats.collections.map { "\($0.name): \($0.records)" })
/// ```
public struct StoreStatistics: Sendable, Hashable, Codable {
    /// One collection's figures.
    ///
    /// ```swift
    /// for c in stats.collections { print(c.name, c.records, c.indexEntries) }
    /// ```
    public struct Collection: Sendable, Hashable, Codable {
        /// The collection's name.
        ///
        /// ```swift
        /// print(collection.name)
        /// ```
        public var name: String
        /// Its schema version.
        ///
        /// ```swift
        /// print(collection.schemaVersion)
        /// ```
        public var schemaVersion: Int
        /// The number of records.
        ///
        /// ```swift
        /// print(collection.records)
        /// ```
        public var records: Int
        /// Entries per index, by index name.
        ///
        /// ```swift
        /// print(collection.indexEntries["created"] ?? 0)
        /// ```
        public var indexEntries: [String: Int]
        /// Bytes of the pages holding the records and their indexes.
        ///
        /// ```swift
        /// print(collection.bytes)
        /// ```
        public var bytes: Int
    }

    /// The database directory.
    ///
    /// ```swift
    /// print(stats.path)
    /// ```
    public var path: String
    /// Per-collection figures, by name.
    ///
    /// ```swift
    /// print(stats.collections.count)
    /// ```
    public var collections: [Collection]
    /// The size of `data.mdb` on disk, in bytes.
    ///
    /// ```swift
    /// print(stats.fileSize)
    /// ```
    public var fileSize: Int
    /// The memory map's size and use, the last transaction and reader slots.
    ///
    /// ```swift
    /// print(stats.info.usedBytes, stats.info.mapSize)
    /// ```
    public var info: StoreInfo
    /// The first and last sequence numbers held by the change log, if any.
    ///
    /// ```swift
    /// print(stats.changeLogFirst ?? 0, stats.changeLogLast ?? 0)
    /// ```
    public var changeLogFirst: UInt64?
    /// The last sequence number held by the change log, if any.
    ///
    /// ```swift
    /// print(stats.changeLogLast ?? 0)
    /// ```
    public var changeLogLast: UInt64?
    /// The change log's retention bound (entries kept).
    ///
    /// ```swift
    /// print(stats.changeLogRetention)
    /// ```
    public var changeLogRetention: Int

    /// The JSON keys; ``info`` keeps its historical key, `environment`.
    enum CodingKeys: String, CodingKey {
        case path, collections, fileSize, info = "environment", changeLogFirst, changeLogLast, changeLogRetention
    }
}

extension Store {
    /// Figures about the store: records and index entries per collection, file and map sizes, the
    /// last transaction, reader slots in use and the change log's range.
    ///
    /// ```swift
    /// let stats = try store.statistics()
    /// ```
    public func statistics() throws -> StoreStatistics {
        try read { reader in
            let tx = reader.transaction
            var collections: [StoreStatistics.Collection] = []
            for name in collectionNames {
                let descriptor = collectionsByName[name]!
                let records = try tx.stats(of: descriptor.records)
                var entries: [String: Int] = [:]
                var bytes = records.bytes
                for (position, index) in descriptor.indexes.enumerated() {
                    let stats = try tx.stats(of: descriptor.indexDatabases[position])
                    entries[index.name] = stats.entries
                    bytes += stats.bytes
                }
                collections.append(.init(name: name, schemaVersion: descriptor.schemaVersion, records: records.entries, indexEntries: entries, bytes: bytes))
            }
            let range = try reader.changeLogRange()
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
            return StoreStatistics(path: path, collections: collections, fileSize: (attributes?[.size] as? Int) ?? 0,
                                   info: environment.info(), changeLogFirst: range?.lowerBound,
                                   changeLogLast: range?.upperBound, changeLogRetention: configuration.changeLogRetention)
        }
    }
}
