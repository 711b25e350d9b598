import Foundation

/// Writes the fields of a record's top-level keyed container for ``RecordCodable``, producing
/// exactly the bytes the `Codable` path of ``RecordEncoder`` produces for the same fields.
///
/// Each `write` appends one entry (key, then the type-tagged value) in call order; writing an
/// optional that is `nil` appends nothing, like `encodeIfPresent` in synthesized `Codable`.
/// Values of types the format does not store natively (arrays, nested structs, enums, …) are
/// written through their `Encodable` conformance, with the same bytes as the `Codable` path;
/// a failure there (for example nesting deeper than 64 levels) is remembered and thrown by
/// ``RecordEncoder/encode(_:)``.
///
/// ```swift
/// func encode(to writer: inout RecordWriter) {
///     writer.write(id, forKey: "id")
///     writer.write(tags, forKey: "tags")            // [String], via Encodable
///     writer.write(inReplyToId, forKey: "inReplyToId") // Int64?: omitted when nil
/// }
/// ```
public struct RecordWriter {
    /// The record so far: version byte, keyed tag, a length slot of ``lengthSlot`` bytes, entries.
    @usableFromInline var bytes: [UInt8]
    /// The first error of a value written through `Encodable`.
    @usableFromInline var failure: (any Error)?

    /// Bytes reserved for the body length varint (2 bytes cover bodies up to 16 KiB).
    @usableFromInline static var lengthSlot: Int { 2 }
    /// Offset of the first entry.
    @usableFromInline static var bodyStart: Int { 2 + lengthSlot }

    /// Starts a record with room for about `capacity` bytes.
    @usableFromInline
    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(RecordFormat.version)
        bytes.append(RecordFormat.Tag.keyed)
        bytes.append(0)
        bytes.append(0)
        failure = nil
    }

    // MARK: Keys

    @inlinable @inline(__always)
    mutating func appendKey(_ key: StaticString) {
        if key.hasPointerRepresentation {
            let count = key.utf8CodeUnitCount
            if count < 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: count))
            } else {
                appendLength(count)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: count))
        } else {
            appendKey(key.description)
        }
    }

    @usableFromInline
    mutating func appendKey(_ key: String) {
        bytes.appendLengthPrefixedUTF8(key)
    }

    @usableFromInline
    mutating func appendLength(_ count: Int) {
        bytes.appendVarint(UInt64(count))
    }

    // MARK: Values the format stores natively

    /// Writes a natively stored value (integer, `Bool`, `String`, `Double`, `Float`, `Date`,
    /// `URL`, `Data`, `UUID`) under a literal key.
    ///
    /// ```swift
    /// writer.write(retweetCount, forKey: "retweetCount")
    /// ```
    @inlinable
    public mutating func write<Value: RecordPrimitive>(_ value: Value, forKey key: StaticString) {
        appendKey(key)
        Value._writeRecordValue(value, into: &bytes)
    }

    /// Writes an array of strings under a literal key: the same bytes as its `Codable` form (an
    /// unkeyed container of strings), without going through `Encodable`.
    ///
    /// ```swift
    /// writer.write(tweet.lists, forKey: "lists")
    /// ```
    public mutating func write(_ values: [String], forKey key: StaticString) {
        appendKey(key)
        var body: [UInt8] = []
        body.reserveCapacity(1 + values.reduce(0) { $0 + $1.utf8.count + 3 })
        body.appendVarint(UInt64(values.count))
        for value in values { RecordValueWriter.writeString(value, into: &body) }
        bytes.append(RecordFormat.Tag.unkeyed)
        bytes.appendVarint(UInt64(body.count))
        bytes.append(contentsOf: body)
    }

    /// Writes a natively stored value under a computed key.
    ///
    /// ```swift
    /// writer.write(score, forKey: "score\(level)")
    /// ```
    @inlinable
    @_disfavoredOverload
    public mutating func write<Value: RecordPrimitive>(_ value: Value, forKey key: String) {
        appendKey(key)
        Value._writeRecordValue(value, into: &bytes)
    }

    /// Writes an optional natively stored value under a literal key; `nil` writes nothing.
    ///
    /// ```swift
    /// writer.write(inReplyToId, forKey: "inReplyToId")
    /// ```
    @inlinable
    public mutating func write<Value: RecordPrimitive>(_ value: Value?, forKey key: StaticString) {
        guard let value else { return }
        write(value, forKey: key)
    }

    /// Writes an optional natively stored value under a computed key; `nil` writes nothing.
    ///
    /// ```swift
    /// writer.write(nickname, forKey: prefix + "nickname")
    /// ```
    @inlinable
    @_disfavoredOverload
    public mutating func write<Value: RecordPrimitive>(_ value: Value?, forKey key: String) {
        guard let value else { return }
        write(value, forKey: key)
    }

    // MARK: Other Encodable values

    /// Writes any other `Encodable` value (array, dictionary, nested struct, enum, …) under a
    /// literal key, with the bytes its `encode(to:)` produces on the `Codable` path.
    ///
    /// ```swift
    /// writer.write(hashtags, forKey: "hashtags")
    /// ```
    public mutating func write<Value: Encodable>(_ value: Value, forKey key: StaticString) {
        appendKey(key)
        writeEncodable(value, key: { key.description })
    }

    /// Writes any other `Encodable` value under a computed key.
    ///
    /// ```swift
    /// writer.write(location, forKey: name)
    /// ```
    @_disfavoredOverload
    public mutating func write<Value: Encodable>(_ value: Value, forKey key: String) {
        appendKey(key)
        writeEncodable(value, key: { key })
    }

    /// Writes any other optional `Encodable` value under a literal key; `nil` writes nothing.
    ///
    /// ```swift
    /// writer.write(place, forKey: "place")
    /// ```
    public mutating func write<Value: Encodable>(_ value: Value?, forKey key: StaticString) {
        guard let value else { return }
        write(value, forKey: key)
    }

    /// Writes any other optional `Encodable` value under a computed key; `nil` writes nothing.
    ///
    /// ```swift
    /// writer.write(place, forKey: name)
    /// ```
    @_disfavoredOverload
    public mutating func write<Value: Encodable>(_ value: Value?, forKey key: String) {
        guard let value else { return }
        write(value, forKey: key)
    }

    private mutating func writeEncodable<Value: Encodable>(_ value: Value, key: () -> String) {
        do {
            // The values of the top-level container are enclosed by one container.
            try RecordValueWriter.write(value, into: &bytes, depth: 1, path: { [RecordCodingKey(stringValue: key())] })
        } catch {
            if failure == nil {
                failure = error
            }
        }
    }

    // MARK: Finishing

    /// Fills in the body length and returns the record, or throws the first remembered failure.
    @usableFromInline
    mutating func finish() throws -> [UInt8] {
        if let failure {
            throw failure
        }
        let slot = Self.lengthSlot
        let bodyStart = Self.bodyStart
        let bodyCount = bytes.count - bodyStart
        let size = RecordFormat.varintSize(UInt64(bodyCount))
        if size > slot {
            var header: [UInt8] = []
            header.appendVarint(UInt64(bodyCount))
            bytes.replaceSubrange(2..<bodyStart, with: header)
            return bytes
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var rest = UInt64(bodyCount)
            var index = 2
            while rest >= 0x80 {
                base[index] = UInt8(truncatingIfNeeded: rest) | 0x80
                rest >>= 7
                index += 1
            }
            base[index] = UInt8(truncatingIfNeeded: rest)
            if size < slot {
                memmove(base + 2 + size, base + bodyStart, bodyCount)
            }
        }
        if size < slot {
            bytes.removeLast(slot - size)
        }
        return bytes
    }
}
