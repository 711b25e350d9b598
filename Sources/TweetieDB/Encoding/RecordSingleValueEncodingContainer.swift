/// Writes the one value of a single value container.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
    let buffer: RecordEncodingBuffer

    var codingPath: [any CodingKey] { buffer.codingPath }

    @inline(__always)
    private func begin() throws {
        try buffer.checkUsable()
        guard buffer.count == 0 else {
            throw EncodingError.invalidValue(buffer.count, EncodingError.Context(
                codingPath: codingPath, debugDescription: "A single value container can encode only one value; a second one was encoded"
            ))
        }
        buffer.count = 1
    }

    mutating func encodeNil() throws { try begin(); buffer.bytes.append(RecordFormat.Tag.null) }
    mutating func encode(_ value: Bool) throws { try begin(); RecordValueWriter.writeBool(value, into: &buffer.bytes) }
    mutating func encode(_ value: String) throws { try begin(); RecordValueWriter.writeString(value, into: &buffer.bytes) }
    mutating func encode(_ value: Double) throws { try begin(); RecordValueWriter.writeDouble(value, into: &buffer.bytes) }
    mutating func encode(_ value: Float) throws { try begin(); RecordValueWriter.writeFloat(value, into: &buffer.bytes) }
    mutating func encode(_ value: Int) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int8) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int16) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int32) throws { try begin(); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int64) throws { try begin(); RecordValueWriter.writeSigned(value, into: &buffer.bytes) }
    mutating func encode(_ value: UInt) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt8) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt16) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt32) throws { try begin(); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt64) throws { try begin(); RecordValueWriter.writeUnsigned(value, into: &buffer.bytes) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        let path = buffer.codingPath
        // The wrapped value stands in this container's place: it keeps the same depth.
        try RecordValueWriter.write(value, into: &buffer.bytes, depth: buffer.depth, path: { path })
    }
}
