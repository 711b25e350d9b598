/// The `Encoder` handed to `encode(to:)` implementations: one per encoded non-primitive value.
final class RecordEncoderImpl: Encoder {
    enum Storage {
        case empty
        case keyed(RecordEncodingBuffer)
        case unkeyed(RecordEncodingBuffer)
        case single(RecordEncodingBuffer)
    }

    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Number of containers enclosing this value.
    let depth: Int
    /// Non-nil for dictionaries and sets: their containers are sorted canonically.
    let canonicalGroupSize: Int?
    var storage: Storage = .empty

    init(codingPath: [any CodingKey], depth: Int, canonicalGroupSize: Int?) {
        self.codingPath = codingPath
        self.depth = depth
        self.canonicalGroupSize = canonicalGroupSize
    }

    private func misuse(_ requested: String) -> RecordEncodingBuffer {
        let buffer = RecordEncodingBuffer(depth: depth + 1, codingPath: codingPath, capacity: 0)
        let error = EncodingError.invalidValue(requested, EncodingError.Context(
            codingPath: codingPath,
            debugDescription: "Requested a \(requested) container from an encoder that already has a container of another kind"
        ))
        buffer.failure = error
        switch storage {
        case .keyed(let existing), .unkeyed(let existing), .single(let existing):
            existing.failure = error
        case .empty:
            break
        }
        return buffer
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let buffer: RecordEncodingBuffer
        switch storage {
        case .empty:
            buffer = RecordEncodingBuffer(depth: depth + 1, codingPath: codingPath, capacity: 512)
            storage = .keyed(buffer)
        case .keyed(let existing):
            buffer = existing
        case .unkeyed, .single:
            buffer = misuse("keyed")
        }
        return KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(buffer: buffer))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let buffer: RecordEncodingBuffer
        switch storage {
        case .empty:
            buffer = RecordEncodingBuffer(depth: depth + 1, codingPath: codingPath, capacity: 64)
            storage = .unkeyed(buffer)
        case .unkeyed(let existing):
            buffer = existing
        case .keyed, .single:
            buffer = misuse("unkeyed")
        }
        return RecordUnkeyedEncodingContainer(buffer: buffer)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let buffer: RecordEncodingBuffer
        switch storage {
        case .empty:
            // A single value adds no nesting level.
            buffer = RecordEncodingBuffer(depth: depth, codingPath: codingPath, capacity: 16)
            storage = .single(buffer)
        case .single(let existing):
            buffer = existing
        case .keyed, .unkeyed:
            buffer = misuse("single value")
        }
        return RecordSingleValueEncodingContainer(buffer: buffer)
    }

    /// Appends the encoded value to `out`. A value that requested no container is written as
    /// an empty keyed container.
    func finish(into out: inout [UInt8]) throws {
        switch storage {
        case .empty:
            out.append(RecordFormat.Tag.keyed)
            out.appendVarint(0)
        case .keyed(let buffer):
            var body = try buffer.assembled()
            if canonicalGroupSize != nil {
                body = try RecordCanonicalOrder.sortKeyedBody(body)
            }
            out.reserveCapacity(out.count + 11 + body.count)
            out.append(RecordFormat.Tag.keyed)
            out.appendVarint(UInt64(body.count))
            out.append(contentsOf: body)
        case .unkeyed(let buffer):
            var body = try buffer.assembled()
            if let groupSize = canonicalGroupSize {
                body = try RecordCanonicalOrder.sortUnkeyedBody(body, groupSize: groupSize)
            }
            let count = UInt64(buffer.count)
            out.reserveCapacity(out.count + 21 + body.count)
            out.append(RecordFormat.Tag.unkeyed)
            out.appendVarint(UInt64(RecordFormat.varintSize(count) + body.count))
            out.appendVarint(count)
            out.append(contentsOf: body)
        case .single(let buffer):
            try buffer.checkUsable()
            guard buffer.count == 1 else {
                throw EncodingError.invalidValue(buffer.count, EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A single value container must encode exactly one value, but \(buffer.count) were encoded"
                ))
            }
            out.append(contentsOf: try buffer.assembled())
        }
    }
}
