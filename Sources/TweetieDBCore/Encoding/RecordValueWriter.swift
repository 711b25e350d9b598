import Foundation

/// Writes single values of the record format.
enum RecordValueWriter {
    @inline(__always)
    static func writeSigned(_ value: Int64, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.signed)
        bytes.appendVarint(RecordFormat.zigzag(value))
    }

    @inline(__always)
    static func writeUnsigned(_ value: UInt64, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.unsigned)
        bytes.appendVarint(value)
    }

    @inline(__always)
    static func writeString(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.string)
        bytes.appendLengthPrefixedUTF8(value)
    }

    @inline(__always)
    static func writeDouble(_ value: Double, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.float64)
        bytes.appendLittleEndian(value.bitPattern)
    }

    @inline(__always)
    static func writeFloat(_ value: Float, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.float32)
        bytes.appendLittleEndian(value.bitPattern)
    }

    @inline(__always)
    static func writeBool(_ value: Bool, into bytes: inout [UInt8]) {
        bytes.append(value ? RecordFormat.Tag.boolTrue : RecordFormat.Tag.boolFalse)
    }

    @inline(__always)
    static func writeDate(_ value: Date, into bytes: inout [UInt8]) {
        bytes.append(RecordFormat.Tag.date)
        bytes.appendLittleEndian(value.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// Writes the types the format stores natively; returns `false` for every other type.
    @inline(__always)
    static func writePrimitive<T: Encodable>(_ value: T, into bytes: inout [UInt8]) -> Bool {
        if T.self == String.self { writeString(unsafeBitCast(value, to: String.self), into: &bytes); return true }
        if T.self == Date.self { writeDate(unsafeBitCast(value, to: Date.self), into: &bytes); return true }
        if T.self == Int.self { writeSigned(Int64(unsafeBitCast(value, to: Int.self)), into: &bytes); return true }
        if T.self == Int64.self { writeSigned(unsafeBitCast(value, to: Int64.self), into: &bytes); return true }
        if T.self == Double.self { writeDouble(unsafeBitCast(value, to: Double.self), into: &bytes); return true }
        if T.self == Bool.self { writeBool(unsafeBitCast(value, to: Bool.self), into: &bytes); return true }
        if T.self == URL.self {
            bytes.append(RecordFormat.Tag.url)
            bytes.appendLengthPrefixedUTF8(unsafeBitCast(value, to: URL.self).absoluteString)
            return true
        }
        if T.self == Data.self {
            let data = unsafeBitCast(value, to: Data.self)
            bytes.append(RecordFormat.Tag.data)
            bytes.appendVarint(UInt64(data.count))
            bytes.append(contentsOf: data)
            return true
        }
        if T.self == UUID.self {
            bytes.append(RecordFormat.Tag.uuid)
            withUnsafeBytes(of: unsafeBitCast(value, to: UUID.self).uuid) { bytes.append(contentsOf: $0) }
            return true
        }
        if T.self == Float.self { writeFloat(unsafeBitCast(value, to: Float.self), into: &bytes); return true }
        if T.self == Int32.self { writeSigned(Int64(unsafeBitCast(value, to: Int32.self)), into: &bytes); return true }
        if T.self == Int16.self { writeSigned(Int64(unsafeBitCast(value, to: Int16.self)), into: &bytes); return true }
        if T.self == Int8.self { writeSigned(Int64(unsafeBitCast(value, to: Int8.self)), into: &bytes); return true }
        if T.self == UInt.self { writeUnsigned(UInt64(unsafeBitCast(value, to: UInt.self)), into: &bytes); return true }
        if T.self == UInt64.self { writeUnsigned(unsafeBitCast(value, to: UInt64.self), into: &bytes); return true }
        if T.self == UInt32.self { writeUnsigned(UInt64(unsafeBitCast(value, to: UInt32.self)), into: &bytes); return true }
        if T.self == UInt16.self { writeUnsigned(UInt64(unsafeBitCast(value, to: UInt16.self)), into: &bytes); return true }
        if T.self == UInt8.self { writeUnsigned(UInt64(unsafeBitCast(value, to: UInt8.self)), into: &bytes); return true }
        return false
    }

    /// Writes any `Encodable` value; `depth` is the number of containers enclosing it.
    @inline(__always)
    static func write<T: Encodable>(_ value: T, into bytes: inout [UInt8], depth: Int, path: () -> [any CodingKey]) throws {
        if writePrimitive(value, into: &bytes) {
            return
        }
        let groupSize = (T.self as? any RecordCanonicallyOrdered.Type)?.recordUnkeyedGroupSize
        let encoder = RecordEncoderImpl(codingPath: path(), depth: depth, canonicalGroupSize: groupSize)
        try value.encode(to: encoder)
        try encoder.finish(into: &bytes)
    }
}
