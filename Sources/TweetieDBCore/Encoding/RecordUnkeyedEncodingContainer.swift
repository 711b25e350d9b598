/// Writes the elements of an unkeyed container in order.
struct RecordUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let buffer: RecordEncodingBuffer

    var codingPath: [any CodingKey] { buffer.codingPath }
    var count: Int { buffer.count }

    @inline(__always)
    func begin() throws {
        try buffer.checkUsable()
        buffer.count += 1
    }

    // The primitive encode methods come from RecordPrimitiveEncoding.

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
