/// Writes the entries of a keyed container: each entry is the key (varint length + UTF-8)
/// followed by the value. Entries stay in the order they are encoded.
struct RecordKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let buffer: RecordEncodingBuffer

    var codingPath: [any CodingKey] { buffer.codingPath }

    @inline(__always)
    private func begin(_ key: Key) throws {
        try buffer.checkUsable()
        buffer.bytes.appendLengthPrefixedUTF8(key.stringValue)
        buffer.count += 1
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        buffer.bytes.append(RecordFormat.Tag.null)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); RecordValueWriter.writeBool(value, into: &buffer.bytes) }
    mutating func encode(_ value: String, forKey key: Key) throws { try begin(key); RecordValueWriter.writeString(value, into: &buffer.bytes) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try begin(key); RecordValueWriter.writeDouble(value, into: &buffer.bytes) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try begin(key); RecordValueWriter.writeFloat(value, into: &buffer.bytes) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); RecordValueWriter.writeSigned(Int64(value), into: &buffer.bytes) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); RecordValueWriter.writeSigned(value, into: &buffer.bytes) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); RecordValueWriter.writeUnsigned(UInt64(value), into: &buffer.bytes) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); RecordValueWriter.writeUnsigned(value, into: &buffer.bytes) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        let path = buffer.codingPath
        try RecordValueWriter.write(value, into: &buffer.bytes, depth: buffer.depth, path: { path + [key] })
    }

    private func deferredEncoder(forKey key: any CodingKey) -> RecordEncoderImpl {
        let encoder = RecordEncoderImpl(codingPath: buffer.codingPath + [key], depth: buffer.depth, canonicalGroupSize: nil)
        guard buffer.failure == nil else { return encoder }
        buffer.bytes.appendLengthPrefixedUTF8(key.stringValue)
        buffer.count += 1
        buffer.deferred.append((buffer.bytes.count, encoder))
        return encoder
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        deferredEncoder(forKey: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        deferredEncoder(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        deferredEncoder(forKey: RecordCodingKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        deferredEncoder(forKey: key)
    }
}
