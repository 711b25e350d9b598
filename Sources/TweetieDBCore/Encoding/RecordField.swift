import Foundation

/// One stored field of a record, returned by ``RecordFieldReader/nextField()``: its name and
/// typed access to its value.
///
/// Reads convert and fail exactly like ``RecordDecoder``: integers convert between widths
/// when the value fits, a stored `Float` reads as `Double`, another stored type throws
/// `DecodingError.typeMismatch`, a stored `nil` throws `DecodingError.valueNotFound` (use
/// `decodeIfPresent(_:)` for optionals). Valid only inside `init(from:)`.
///
/// ```swift
/// switch field.name {
/// case "id": id = try field.decode(Int64.self)
/// case "inReplyToId": inReplyToId = try field.decodeIfPresent(Int64.self)
/// default: break
/// }
/// ```
public struct RecordField {
    /// The field's key, compared without copying.
    ///
    /// ```swift
    /// if field.name == "id" { … }
    /// ```
    public let name: RecordFieldName
    /// Offset of the value's tag byte.
    @usableFromInline let value: Int
    /// Offset just past the value.
    @usableFromInline let end: Int
    /// The scan's table of shared strings, if the record is decoded in a scan (unretained: the
    /// scan keeps it alive, and copying a field costs no reference counting).
    @usableFromInline let sharing: Unmanaged<SharedStringTable>?

    @usableFromInline
    init(name: RecordFieldName, value: Int, end: Int, sharing: Unmanaged<SharedStringTable>? = nil) {
        self.name = name
        self.value = value
        self.end = end
        self.sharing = sharing
    }

    /// Whether the stored value is an explicit `nil` (tag `0x00`).
    ///
    /// ```swift
    /// if field.isNil { inReplyToId = nil }
    /// ```
    @inlinable
    public var isNil: Bool {
        name.base[value] == 0x00  // RecordFormat.Tag.null
    }

    /// Decodes a natively stored value (integer, `Bool`, `String`, `Double`, `Float`, `Date`,
    /// `URL`, `Data`, `UUID`).
    ///
    /// ```swift
    /// let retweets = try field.decode(Int.self)
    /// ```
    @inlinable
    public func decode<Value: RecordPrimitive>(_ type: Value.Type) throws -> Value {
        try Value._readRecordValue(from: self)
    }

    /// Decodes a natively stored value, or `nil` when the stored value is `nil`.
    ///
    /// ```swift
    /// let replyTo = try field.decodeIfPresent(Int64.self)
    /// ```
    @inlinable
    public func decodeIfPresent<Value: RecordPrimitive>(_ type: Value.Type) throws -> Value? {
        if isNil {
            return nil
        }
        return try Value._readRecordValue(from: self)
    }

    /// Decodes any other `Decodable` value (array, nested struct, enum, …) through its
    /// `init(from:)`, exactly as the `Codable` path does.
    ///
    /// ```swift
    /// let hashtags = try field.decode([String].self)
    /// ```
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let reader = RecordReader(base: name.base, count: end)
        let decoder = RecordDecoderImpl(reader: reader, position: value, limit: end)
        var next = 0
        // The values of the top-level container are enclosed by one container.
        return try decoder.decodeValue(type, at: value, limit: end, depth: 1, end: &next) {
            [RecordCodingKey(stringValue: name.string)]
        }
    }

    /// Decodes any other `Decodable` value, or `nil` when the stored value is `nil`.
    ///
    /// ```swift
    /// let place = try field.decodeIfPresent(Place.self)
    /// ```
    public func decodeIfPresent<Value: Decodable>(_ type: Value.Type) throws -> Value? {
        if isNil {
            return nil
        }
        return try decode(type)
    }

    /// Runs a ``RecordReader`` read on the value and turns a problem into the `DecodingError`
    /// the `Codable` path throws (coding path: the field's key).
    @inline(__always)
    func read<Value>(_ body: (RecordReader, Int, Int) throws(RecordProblem) -> (Value, Int)) throws -> Value {
        do {
            return try body(RecordReader(base: name.base, count: end), value, end).0
        } catch {
            throw error.decodingError(path: [RecordCodingKey(stringValue: name.string)])
        }
    }
}
