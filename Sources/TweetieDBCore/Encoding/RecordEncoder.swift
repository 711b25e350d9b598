import Foundation

/// Encodes `Encodable` values into TweetieDB's compact, self-describing binary record format.
///
/// ```swift
/// let bytes: [UInt8] = try RecordEncoder().encode(tweet)
/// let copy = try RecordDecoder().decode(Tweet.self, from: bytes)
/// ```
///
/// ## Byte format (version 1)
///
/// A record is the version byte `0x01` followed by exactly one *value*. Every value starts
/// with a one-byte type tag:
///
/// | Tag    | Meaning                 | Payload after the tag                                              |
/// |--------|-------------------------|--------------------------------------------------------------------|
/// | `0x00` | nil                     | none                                                               |
/// | `0x01` | `false`                 | none                                                               |
/// | `0x02` | `true`                  | none                                                               |
/// | `0x03` | unsigned integer        | varint                                                             |
/// | `0x04` | signed integer          | varint of the zigzag value (`(n << 1) ^ (n >> 63)`)                |
/// | `0x05` | `Double`                | 8 bytes, IEEE-754 bit pattern, little-endian                       |
/// | `0x06` | `Float`                 | 4 bytes, IEEE-754 bit pattern, little-endian                       |
/// | `0x07` | `String`                | varint byte length, UTF-8 bytes                                    |
/// | `0x08` | `Data`                  | varint byte length, raw bytes                                      |
/// | `0x09` | `Date`                  | 8 bytes: `timeIntervalSinceReferenceDate` bits, little-endian      |
/// | `0x0A` | `URL`                   | varint byte length, UTF-8 of `absoluteString`                      |
/// | `0x0B` | `UUID`                  | 16 bytes of `uuid`                                                 |
/// | `0x0C` | keyed container         | varint body length, then entries: varint key length, key UTF-8 (`CodingKey.stringValue`), value |
/// | `0x0D` | unkeyed container       | varint body length, then body: varint element count, elements      |
///
/// A *varint* is unsigned LEB128: 7 bits per byte, least significant group first, high bit
/// set on every byte but the last; at most 10 bytes (64 bits).
///
/// Rules:
/// - All signed integer types (`Int`, `Int8` … `Int64`) use tag `0x04`, all unsigned ones tag
///   `0x03`. Either tag decodes into any integer type the value fits in.
/// - Keyed containers keep fields in the order `encode(to:)` wrote them. Optionals encoded with
///   `encodeIfPresent` (what synthesized `Codable` does) are omitted when `nil`.
/// - `Dictionary` and `Set` values are written in a canonical order (keyed entries sorted by
///   key bytes; unkeyed dictionary pairs sorted by the key's encoded bytes; set elements by
///   their encoded bytes), so equal values always give identical bytes in every process.
/// - A value whose `encode(to:)` requests no container is written as an empty keyed container.
/// - Containers nest at most 64 deep; deeper values throw `EncodingError.invalidValue`.
/// - Because every container carries its byte length, a decoder can skip unknown fields in
///   O(1), so fields can be added (decoded as `nil` when missing) or removed (ignored).
public struct RecordEncoder: Sendable {
    /// Creates an encoder.
    ///
    /// ```swift
    /// let encoder = RecordEncoder()
    /// ```
    public init() {}

    /// Encodes `value` as one record (format version byte plus the value).
    ///
    /// Throws `EncodingError.invalidValue` when containers nest deeper than 64 levels or a
    /// container is misused (for example two different container kinds from one encoder).
    ///
    /// ```swift
    /// let bytes = try RecordEncoder().encode(tweet)
    /// ```
    ///
    /// When `T` also adopts ``RecordCodable`` (the runtime conformance lookup runs once per
    /// type and is cached), its hand-written ``RecordCodable/encode(to:)`` writes the record
    /// instead of `encode(to:)`; the bytes are the same.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let fast = RecordCodableLookup.fastType(T.self) {
            return try Self.encodeFields(value, as: fast)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        bytes.append(RecordFormat.version)
        try RecordValueWriter.write(value, into: &bytes, depth: 0, path: { [] })
        return bytes
    }

    /// Encodes a ``RecordCodable`` value through its hand-written fast path.
    ///
    /// ```swift
    /// let bytes = try RecordEncoder().encode(record: tweet)
    /// ```
    @inlinable
    public func encode<T: RecordCodable>(record value: T) throws -> [UInt8] {
        var writer = RecordWriter(capacity: Self.fastCapacity)
        value.encode(to: &writer)
        return try writer.finish()
    }

    /// Initial capacity of a fast-path record buffer.
    @usableFromInline static var fastCapacity: Int { 512 }

    /// Runs the fast path for a `T` known (at run time) to be the ``RecordCodable`` type `U`.
    private static func encodeFields<T, U: RecordCodable>(_ value: T, as type: U.Type) throws -> [UInt8] {
        var writer = RecordWriter(capacity: fastCapacity)
        withUnsafePointer(to: value) { pointer in
            UnsafeRawPointer(pointer).assumingMemoryBound(to: U.self).pointee.encode(to: &writer)
        }
        return try writer.finish()
    }
}
