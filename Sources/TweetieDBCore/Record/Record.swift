/// A value type stored in a ``Store``: `Codable`, `Sendable`, with a primary key, a collection
/// name, a schema version and secondary indexes.
///
/// Records are stored in a compact binary encoding (``RecordEncoder``), keyed by their primary key
/// encoded so that LMDB's byte order is the key's natural order. `Identifiable` records whose `id`
/// is a ``KeyComponent`` get `primaryKey` for free.
///
/// ```swift
/// struct Note: Record, Identifiable {
///     static let collectionName = "notes"
///     static let byUpdated = Index<Note>.on("updated", order: .descending, \.updated)
///     static let indexes = [byUpdated.index]
///     var id: Int64
///     var text: String
///     var updated: Date
/// }
/// ```
public protocol Record: Codable, Sendable {
    /// The type of the primary key (`Int64`, `UInt64`, `String`, `UUID`, …).
    associatedtype PrimaryKey: KeyComponent

    /// The collection's name: the name of its LMDB database. Letters, digits, `_` and `-`.
    ///
    /// ```swift
    /// static let collectionName = "tweets"
    /// ```
    static var collectionName: String { get }

    /// The version of the record's schema; raise it to run a migration. Default: 1.
    ///
    /// ```swift
    /// static let schemaVersion = 2
    /// ```
    static var schemaVersion: Int { get }

    /// The secondary indexes, maintained in the same transaction as the records. Default: none.
    /// Each is usually the ``TypedIndex/index`` of a handle the type declares, which queries take.
    ///
    /// ```swift
    /// static let byCreated = Index<Tweet>.on("created", order: .descending) { $0.created }
    /// static let indexes = [byCreated.index]
    /// ```
    static var indexes: [Index<Self>] { get }

    /// The record's primary key.
    ///
    /// ```swift
    /// var primaryKey: Int64 { id }
    /// ```
    var primaryKey: PrimaryKey { get }

    /// Decodes a stored record: the store's hook, not meant to be implemented.
    ///
    /// The default reads through ``RecordDecoder``; a record that is also ``RecordCodable``
    /// gets a default that calls its fast path directly, resolved when the conformance is
    /// compiled rather than looked up per record.
    ///
    /// ```swift
    /// `sharing` is the scan's table of shared strings (`nil` outside a scan); see
    /// ``RecordField/decodeShared(_:)-(String.Type)``.
    ///
    /// ```swift
    /// let tweet = try Tweet._decodeStored(bytes, sharing: nil)
    /// ```
    static func _decodeStored(_ bytes: UnsafeRawBufferPointer, sharing: SharedStringTable?) throws -> Self

    /// Encodes the record for storage: the store's hook, not meant to be implemented.
    ///
    /// The default encodes through ``RecordEncoder``; a record that is also ``RecordCodable``
    /// writes its fields straight into the store's reused buffer.
    ///
    /// ```swift
    /// // Internal: the store calls it with a writer over its scratch buffer.
    /// ```
    func _encodeStored(to writer: inout RecordWriter) throws
}

extension Record {
    /// Decodes a stored record through ``RecordDecoder`` (the `Codable` path shares no strings).
    ///
    /// ```swift
    /// let tweet = try Tweet._decodeStored(bytes, sharing: nil)
    /// ```
    @inlinable
    public static func _decodeStored(_ bytes: UnsafeRawBufferPointer, sharing: SharedStringTable?) throws -> Self {
        try RecordDecoder().decode(Self.self, from: bytes)
    }

    /// Encodes the record through ``RecordEncoder`` into `writer`'s buffer.
    ///
    /// ```swift
    /// // Internal: the store calls it with a writer over its scratch buffer.
    /// ```
    @inlinable
    public func _encodeStored(to writer: inout RecordWriter) throws {
        writer.replaceWithEncodedRecord(try RecordEncoder().encode(self))
    }
}

extension Record where Self: RecordCodable {
    /// Decodes a stored record through its ``RecordCodable`` fast path.
    ///
    /// ```swift
    /// let tweet = try Tweet._decodeStored(bytes, sharing: SharedStringTable())
    /// ```
    @inlinable
    public static func _decodeStored(_ bytes: UnsafeRawBufferPointer, sharing: SharedStringTable?) throws -> Self {
        try RecordDecoder().decode(record: Self.self, from: bytes, sharing: sharing)
    }

    /// Writes the record's fields through its ``RecordCodable`` fast path.
    ///
    /// ```swift
    /// // Internal: the store calls it with a writer over its scratch buffer.
    /// ```
    @inlinable
    public func _encodeStored(to writer: inout RecordWriter) throws {
        encode(to: &writer)
    }
}

extension Record {
    /// The default schema version, 1.
    ///
    /// ```swift
    /// print(Tweet.schemaVersion) // 1
    /// ```
    public static var schemaVersion: Int { 1 }

    /// No secondary indexes by default.
    ///
    /// ```swift
    /// print(Note.indexes.isEmpty)
    /// ```
    public static var indexes: [Index<Self>] { [] }
}

extension Record where Self: Identifiable, ID: KeyComponent {
    /// An `Identifiable` record's primary key is its `id`.
    ///
    /// ```swift
    /// print(tweet.primaryKey == tweet.id) // true
    /// ```
    public var primaryKey: ID { id }
}

extension Record {
    /// The primary key's bytes as stored (order-preserving encoding).
    @inlinable
    var encodedPrimaryKey: [UInt8] {
        var encoder = KeyEncoder()
        encoder.append(primaryKey)
        return encoder.bytes
    }

    @inlinable
    static func encode(primaryKey: PrimaryKey) -> [UInt8] {
        var encoder = KeyEncoder()
        encoder.append(primaryKey)
        return encoder.bytes
    }
}
