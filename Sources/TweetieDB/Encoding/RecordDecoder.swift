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
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "Empty input: expected a record starting with format version byte 0x\(encodingHexByte(RecordFormat.version))"
            ))
        }
        let reader = RecordReader(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard reader.base[0] == RecordFormat.version else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [],
                debugDescription: "Unsupported record format version 0x\(encodingHexByte(reader.base[0])) at byte offset 0 (expected 0x\(encodingHexByte(RecordFormat.version)))"
            ))
        }
        let decoder = RecordDecoderImpl(reader: reader, position: 1, limit: bytes.count)
        var end = 0
        let value = try decoder.decodeValue(type, at: 1, limit: bytes.count, depth: 0, end: &end, path: { [] })
        guard end == bytes.count else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "Unexpected trailing bytes: the record ends at byte offset \(end) but the input has \(bytes.count) bytes"
            ))
        }
        return value
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
