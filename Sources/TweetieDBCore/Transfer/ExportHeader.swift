import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The first line of an NDJSON export: what follows.
///
/// ```json
/// {"collections":[{"count":304,"name":"tweets","schemaVersion":1},{"count":8,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}
/// ```
public struct ExportHeader: Codable, Sendable, Hashable {
    /// One collection of the export.
    ///
    /// ```swift
    /// print(header.collections.map(\.name))
    /// ```
    public struct Collection: Codable, Sendable, Hashable {
        /// The collection's name.
        ///
        /// ```swift
        /// print(collection.name) // "tweets"
        /// ```
        public var name: String
        /// Its record schema version.
        ///
        /// ```swift
        /// print(collection.schemaVersion)
        /// ```
        public var schemaVersion: Int
        /// The number of record lines that follow for it.
        ///
        /// ```swift
        /// print(collection.count)
        /// ```
        public var count: Int
    }

    /// Always `tweetie-db-export`.
    ///
    /// ```swift
    /// assert(header.format == ExportHeader.formatName)
    /// ```
    public var format: String
    /// The export format's version (1).
    ///
    /// ```swift
    /// print(header.version)
    /// ```
    public var version: Int
    /// The collections, in the order their records follow.
    ///
    /// ```swift
    /// print(header.collections.count)
    /// ```
    public var collections: [Collection]

    /// The value of ``format``.
    ///
    /// ```swift
    /// print(ExportHeader.formatName)
    /// ```
    public static let formatName = "tweetie-db-export"
    /// The version this library writes and reads.
    ///
    /// ```swift
    /// print(ExportHeader.currentVersion)
    /// ```
    public static let currentVersion = 1
}
