import Foundation

/// Iterates the fields of a record's top-level keyed container, in stored order, for
/// ``RecordCodable/init(from:)``.
///
/// The reader points into the buffer being decoded: use it (and the ``RecordField``s it
/// returns) only inside `init(from:)`. Every field is bounds-checked before it is returned,
/// so corrupt input throws `DecodingError.dataCorrupted` and never reads out of bounds.
///
/// ```swift
/// init(from reader: inout RecordFieldReader) throws {
///     var id: Int64?
///     var note: String?
///     while let field = try reader.nextField() {
///         switch field.name {
///         case "id": id = try field.decode(Int64.self)
///         case "note": note = try field.decodeIfPresent(String.self)
///         default: break
///         }
///     }
///     self.init(id: try reader.require(id, forKey: "id"), note: note)
/// }
/// ```
public struct RecordFieldReader {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// Offset of the container's first entry.
    @usableFromInline let start: Int
    /// Offset of the next entry.
    @usableFromInline var position: Int
    /// End of the container's entries.
    @usableFromInline let end: Int
    /// The scan's shared strings, handed to every field (see ``RecordField/decodeShared(_:)-(String.Type)``).
    @usableFromInline let sharing: Unmanaged<SharedStringTable>?

    /// Reads the entries in `base[body]`, already validated as a keyed container's body.
    @usableFromInline
    init(base: UnsafePointer<UInt8>, body: Range<Int>, sharing: Unmanaged<SharedStringTable>? = nil) {
        self.base = base
        self.start = body.lowerBound
        self.position = body.lowerBound
        self.end = body.upperBound
        self.sharing = sharing
    }

    /// Returns the next stored field, or `nil` after the last one.
    ///
    /// Throws `DecodingError.dataCorrupted` when the entry's key or value extent is malformed.
    ///
    /// ```swift
    /// while let field = try reader.nextField() {
    ///     print(field.name.string)
    /// }
    /// ```
    // Transparent (inlined where it is called, always): `@inline(__always)` alone left a call
    // per field whose 48-byte optional result went through memory.
    @_transparent
    public mutating func nextField() throws -> RecordField? {
        guard position < end else {
            return nil
        }
        if let field = nextFieldFast() {
            return field
        }
        return try nextFieldChecked()
    }

    /// Reads the next entry with the general, fully checked code, which also produces the errors.
    @usableFromInline
    mutating func nextFieldChecked() throws -> RecordField? {
        let reader = RecordReader(base: base, count: end)
        do {
            let entry = try reader.entryKey(at: position, limit: end)
            let valueEnd = try reader.valueEnd(at: entry.value, limit: end)
            position = valueEnd
            return RecordField(
                name: RecordFieldName(base: base, start: entry.key.lowerBound, count: entry.key.count),
                value: entry.value, end: valueEnd, sharing: sharing
            )
        } catch {
            throw error.decodingError(path: [])
        }
    }

    /// Returns `value`, or throws `DecodingError.keyNotFound` for `key` when it is `nil`: use
    /// it for required fields once all fields are read.
    ///
    /// The error is the one the `Codable` path throws for a missing non-optional field.
    ///
    /// ```swift
    /// self.id = try reader.require(id, forKey: "id")
    /// ```
    @inlinable
    public func require<Value>(_ value: consuming Value?, forKey key: StaticString) throws -> Value {
        guard let value else {
            throw missing(key.description)
        }
        return value
    }

    /// Returns `value`, or throws `DecodingError.keyNotFound` for the computed `key` when it is `nil`.
    ///
    /// ```swift
    /// self.score = try reader.require(score, forKey: name)
    /// ```
    @inlinable
    @_disfavoredOverload
    public func require<Value>(_ value: consuming Value?, forKey key: String) throws -> Value {
        guard let value else {
            throw missing(key)
        }
        return value
    }

    @usableFromInline
    func missing(_ key: String) -> DecodingError {
        .keyNotFound(RecordCodingKey(stringValue: key), DecodingError.Context(
            codingPath: [],
            debugDescription: "No value for key \"\(key)\" in the keyed container at byte offset \(start)"
        ))
    }
}
