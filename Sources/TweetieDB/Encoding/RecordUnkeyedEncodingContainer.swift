/// Writes the elements of an unkeyed container in order.
struct RecordUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let buffer: RecordEncodingBuffer

    var codingPath: [any CodingKey] { buffer.codingPath }
    var count: Int { buffer.count }

    @inline(__always)
    private func begin() throws {
        try buffer.checkUsable()
        buffer.count += 1
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
        let index = buffer.count - 1
        try RecordValueWriter.write(value, into: &buffer.bytes, depth: buffer.depth, path: { path + [RecordCodingKey(index: index)] })
    }

    private func deferredEncoder() -> RecordEncoderImpl {
        let encoder = RecordEncoderImpl(
            codingPath: buffer.codingPath + [RecordCodingKey(index: buffer.count)], depth: buffer.depth, canonicalGroupSize: nil
        )
        guard buffer.failure == nil else { return encoder }
        buffer.count += 1
        buffer.deferred.append((buffer.bytes.count, encoder))
        return encoder
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        deferredEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        deferredEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        deferredEncoder()
    }
}
