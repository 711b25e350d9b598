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
    @usableFromInline let buffer: RecordByteBuffer
    /// The first error of a value written through `Encodable`.
    @usableFromInline var failure: (any Error)?
    /// Set when the buffer holds a complete record written elsewhere (``replaceWithEncodedRecord(_:)``).
    @usableFromInline var isComplete = false

    /// Bytes reserved for the body length varint (2 bytes cover bodies up to 16 KiB).
    @usableFromInline static var lengthSlot: Int { 2 }
    /// Offset of the first entry.
    @usableFromInline static var bodyStart: Int { 2 + lengthSlot }

    /// Starts a record with room for about `capacity` bytes.
    @usableFromInline
    init(capacity: Int) {
        self.init(reusing: RecordByteBuffer(capacity: capacity))
    }

    /// Starts a record in `buffer`, discarding what it held.
    @usableFromInline
    init(reusing buffer: RecordByteBuffer) {
        self.buffer = buffer
        buffer.count = 0
        buffer.append(RecordFormat.version)
        buffer.append(RecordFormat.Tag.keyed)
        buffer.append(0)
        buffer.append(0)
        failure = nil
    }

    // MARK: Keys

    @inlinable @inline(__always)
    mutating func appendKey(_ key: StaticString) {
        if key.hasPointerRepresentation {
            let count = key.utf8CodeUnitCount
            if count < 0x80 {
                buffer.append(UInt8(truncatingIfNeeded: count))
            } else {
                appendLength(count)
            }
            buffer.append(UnsafeRawBufferPointer(start: key.utf8Start, count: count))
        } else {
            appendKey(key.description)
        }
    }

    @usableFromInline
    mutating func appendKey(_ key: String) {
        buffer.appendLengthPrefixedUTF8(key)
    }

    @usableFromInline
    mutating func appendLength(_ count: Int) {
        buffer.appendVarint(UInt64(count))
    }

    /// Appends the tagged value: the common types straight into the buffer (the type tests fold
    /// away when this is specialized), the others through their `[UInt8]` writer.
    @inlinable @inline(__always)
    mutating func appendValue<Value: RecordPrimitive>(_ value: Value) {
        // Tags as in RecordFormat.Tag (literals: this code is inlined into other modules).
        if Value.self == String.self {
            buffer.append(0x07)
            buffer.appendLengthPrefixedUTF8(unsafeBitCast(value, to: String.self))
        } else if Value.self == Int64.self {
            appendSigned(unsafeBitCast(value, to: Int64.self))
        } else if Value.self == Int.self {
            appendSigned(Int64(unsafeBitCast(value, to: Int.self)))
        } else if Value.self == Int32.self {
            appendSigned(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if Value.self == UInt64.self {
            buffer.append(0x03)
            buffer.appendVarint(unsafeBitCast(value, to: UInt64.self))
        } else if Value.self == Bool.self {
            buffer.append(unsafeBitCast(value, to: Bool.self) ? 0x02 : 0x01)
        } else if Value.self == Date.self {
            buffer.append(0x09)
            buffer.appendLittleEndian(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate.bitPattern)
        } else if Value.self == Double.self {
            buffer.append(0x05)
            buffer.appendLittleEndian(unsafeBitCast(value, to: Double.self).bitPattern)
        } else {
            appendOther(value)
        }
    }

    @inlinable @inline(__always)
    mutating func appendSigned(_ value: Int64) {
        buffer.append(0x04)
        buffer.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))  // zigzag
    }

    @usableFromInline
    mutating func appendOther<Value: RecordPrimitive>(_ value: Value) {
        var bytes: [UInt8] = []
        Value._writeRecordValue(value, into: &bytes)
        bytes.withUnsafeBytes { buffer.append($0) }
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
        appendValue(value)
    }

    /// Writes an array of strings under a literal key: the same bytes as its `Codable` form (an
    /// unkeyed container of strings), without going through `Encodable`.
    ///
    /// ```swift
    /// writer.write(tweet.lists, forKey: "lists")
    /// ```
    public mutating func write(_ values: [String], forKey key: StaticString) {
        appendKey(key)
        var bodyCount = RecordFormat.varintSize(UInt64(values.count))
        for value in values {
            let length = value.utf8.count
            bodyCount += 1 + RecordFormat.varintSize(UInt64(length)) + length
        }
        buffer.append(RecordFormat.Tag.unkeyed)
        buffer.appendVarint(UInt64(bodyCount))
        buffer.appendVarint(UInt64(values.count))
        for value in values {
            buffer.append(RecordFormat.Tag.string)
            buffer.appendLengthPrefixedUTF8(value)
        }
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
        appendValue(value)
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
            var bytes: [UInt8] = []
            try RecordValueWriter.write(value, into: &bytes, depth: 1, path: { [RecordCodingKey(stringValue: key())] })
            bytes.withUnsafeBytes { buffer.append($0) }
        } catch {
            if failure == nil {
                failure = error
            }
        }
    }

    // MARK: Finishing

    /// Replaces what was written with a complete record that ``RecordEncoder`` produced.
    @usableFromInline
    mutating func replaceWithEncodedRecord(_ bytes: [UInt8]) {
        buffer.count = 0
        bytes.withUnsafeBytes { buffer.append($0) }
        isComplete = true
    }

    /// Fills in the body length and returns a copy of the record, or throws the first
    /// remembered failure.
    @usableFromInline
    mutating func finish() throws -> [UInt8] {
        try withExtendedLifetime(buffer) { Array(try finishInPlace()) }
    }

    /// Fills in the body length and returns the record in the writer's buffer (valid until the
    /// buffer is reused), or throws the first remembered failure.
    @usableFromInline
    mutating func finishInPlace() throws -> UnsafeRawBufferPointer {
        if let failure {
            throw failure
        }
        if isComplete {
            return buffer.bytes
        }
        let slot = Self.lengthSlot
        let bodyStart = Self.bodyStart
        let bodyCount = buffer.count - bodyStart
        let size = RecordFormat.varintSize(UInt64(bodyCount))
        if size > slot {
            // Rare (bodies over 16 KiB): shift the body right to make room for the longer varint.
            buffer.reserve(size - slot)
            let base = buffer.base
            memmove(base + 2 + size, base + bodyStart, bodyCount)
            buffer.count += size - slot
        }
        let base = buffer.base
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
            buffer.count -= slot - size
        }
        return buffer.bytes
    }
}
