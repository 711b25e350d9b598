/// The bytes of one container being encoded, plus the nested encoders whose output is
/// spliced in when the container is finished (for `nestedContainer` / `superEncoder`, whose
/// contents may still change after the call that created them).
final class RecordEncodingBuffer {
    var bytes: [UInt8]
    /// Entries (keyed) or elements (unkeyed, single value) written so far.
    var count: Int
    /// Nested encoders to splice in at a byte offset of `bytes`.
    var deferred: [(offset: Int, encoder: RecordEncoderImpl)]
    /// Number of containers enclosing the values written into this buffer (itself included).
    let depth: Int
    let codingPath: [any CodingKey]
    /// Set when this container must not be used; thrown by every write and by `finish`.
    var failure: EncodingError?

    init(depth: Int, codingPath: [any CodingKey], capacity: Int) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
        self.count = 0
        self.deferred = []
        self.depth = depth
        self.codingPath = codingPath
        if depth > RecordFormat.maxDepth {
            failure = EncodingError.invalidValue(depth, EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Containers nested deeper than \(RecordFormat.maxDepth) levels cannot be encoded (is the value recursive?)"
            ))
        }
    }

    @inline(__always)
    func checkUsable() throws {
        if let failure {
            throw failure
        }
    }

    /// The bytes with every deferred nested encoder's output spliced in.
    func assembled() throws -> [UInt8] {
        try checkUsable()
        if deferred.isEmpty {
            return bytes
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 64 * deferred.count)
        var copied = 0
        for (offset, encoder) in deferred {
            result.append(contentsOf: bytes[copied..<offset])
            try encoder.finish(into: &result)
            copied = offset
        }
        result.append(contentsOf: bytes[copied...])
        return result
    }
}
