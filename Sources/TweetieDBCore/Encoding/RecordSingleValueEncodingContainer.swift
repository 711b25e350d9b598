/// Writes the one value of a single value container.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
    let buffer: RecordEncodingBuffer

    var codingPath: [any CodingKey] { buffer.codingPath }

    @inline(__always)
    func begin() throws {
        try buffer.checkUsable()
        guard buffer.count == 0 else {
            throw EncodingError.invalidValue(buffer.count, EncodingError.Context(
                codingPath: codingPath, debugDescription: "A single value container can encode only one value; a second one was encoded"
            ))
        }
        buffer.count = 1
    }

    // The primitive encode methods come from RecordPrimitiveEncoding.

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        let path = buffer.codingPath
        // The wrapped value stands in this container's place: it keeps the same depth.
        try RecordValueWriter.write(value, into: &buffer.bytes, depth: buffer.depth, path: { path })
    }
}
