import Foundation

/// Decodes `Decodable` values from the compact binary record format written by ``RecordEncoder``.
///
/// Errors are `DecodingError`s: `.dataCorrupted` for malformed or truncated bytes (the
/// message names what was expected and the byte offset), `.typeMismatch` when a stored value
/// has another type than requested, `.valueNotFound` for a nil where a value is required and
/// `.keyNotFound` for a missing non-optional field. Corrupt input never crashes or reads out
/// of bounds. Integers are converted between widths when the value fits (an `Int` written can
/// be read as `Int64`, `Int8`, `UInt32`, …), a `Float` can be read as `Double`.
///
/// ```swift
/// let bytes = try RecordEncoder().encode(tweet)
/// let copy = try RecordDecoder().decode(Tweet.self, from: bytes)
/// ```
public struct RecordDecoder: Sendable {
    /// Creates a decoder.
    ///
    /// ```swift
    /// let decoder = RecordDecoder()
    /// ```
    public init() {}

    /// Decodes a value of type `T` from `bytes`, which must hold exactly one record.
    ///
    /// The buffer is only read during the call (strings and data are copied out), so it can
    /// point straight into an LMDB page.
    ///
    /// ```swift
    /// let tweet = try RecordDecoder().decode(Tweet.self, from: UnsafeRawBufferPointer(start: val.mv_data, count: val.mv_size))
    /// ```
    ///
    /// When `T` also adopts ``RecordCodable`` (the runtime conformance lookup runs once per
    /// type and is cached), its hand-written ``RecordCodable/init(from:)`` decodes the record.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        if let fast = RecordCodableLookup.fastType(T.self) {
            return try Self.decodeFields(fast, as: type, from: bytes)
        }
        let reader = RecordReader(base: try Self.checkedBase(bytes), count: bytes.count)
        let decoder = RecordDecoderImpl(reader: reader, position: 1, limit: bytes.count)
        var end = 0
        let value = try decoder.decodeValue(type, at: 1, limit: bytes.count, depth: 0, end: &end, path: { [] })
        try Self.checkEnd(end, count: bytes.count)
        return value
    }

    /// Decodes a ``RecordCodable`` value through its hand-written fast path; `bytes` must
    /// hold exactly one record.
    ///
    /// Pass the same `sharing` table for every record of a batch to let equal values read with
    /// ``RecordField/decodeShared(_:)-(String.Type)`` share their storage.
    ///
    /// ```swift
    /// let tweet = try RecordDecoder().decode(record: Tweet.self, from: buffer)
    /// ```
    @inlinable
    public func decode<T: RecordCodable>(record type: T.Type, from bytes: UnsafeRawBufferPointer,
                                         sharing: SharedStringTable? = nil) throws -> T {
        var reader = try Self.fieldReader(for: bytes, type: T.self, sharing: sharing)
        return try withExtendedLifetime(sharing) { try T(from: &reader) }
    }

    /// Checks the version byte, that the record is one keyed container and that nothing
    /// follows it; returns a reader over the container's fields.
    @usableFromInline
    static func fieldReader(for bytes: UnsafeRawBufferPointer, type: Any.Type, sharing: SharedStringTable? = nil) throws -> RecordFieldReader {
        let base = try checkedBase(bytes)
        let body: Range<Int>
        do {
            body = try RecordReader(base: base, count: bytes.count).keyedBody(at: 1, limit: bytes.count, type: type)
        } catch {
            throw error.decodingError(path: [])
        }
        try checkEnd(body.upperBound, count: bytes.count)
        return RecordFieldReader(base: base, body: body, sharing: sharing.map { Unmanaged.passUnretained($0) })
    }

    /// Runs the fast path for a `T` known (at run time) to be the ``RecordCodable`` type `U`:
    /// the value is decoded straight into the result's memory, without a copy.
    private static func decodeFields<T, U: RecordCodable>(_ fast: U.Type, as type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        var reader = try fieldReader(for: bytes, type: T.self)
        return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
            let raw = UnsafeMutableRawPointer(slot.baseAddress!)
            raw.assumingMemoryBound(to: U.self).initialize(to: try U(from: &reader))
            return slot.baseAddress!.move()
        }
    }

    /// The start of `bytes` after checking it is non-empty and starts with the version byte.
    private static func checkedBase(_ bytes: UnsafeRawBufferPointer) throws -> UnsafePointer<UInt8> {
        guard let raw = bytes.baseAddress, bytes.count > 0 else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "Empty input: expected a record starting with format version byte 0x\(encodingHexByte(RecordFormat.version))"
            ))
        }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        guard base[0] == RecordFormat.version else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [],
                debugDescription: "Unsupported record format version 0x\(encodingHexByte(base[0])) at byte offset 0 (expected 0x\(encodingHexByte(RecordFormat.version)))"
            ))
        }
        return base
    }

    /// Throws when the record's value ends before the input does.
    private static func checkEnd(_ end: Int, count: Int) throws {
        guard end == count else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "Unexpected trailing bytes: the record ends at byte offset \(end) but the input has \(count) bytes"
            ))
        }
    }

    /// Decodes a value of type `T` from a byte array holding exactly one record.
    ///
    /// ```swift
    /// let tweet = try RecordDecoder().decode(Tweet.self, from: bytes)
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// Decodes a value of type `T` from `Data` holding exactly one record.
    ///
    /// ```swift
    /// let tweet = try RecordDecoder().decode(Tweet.self, from: data)
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }
}
