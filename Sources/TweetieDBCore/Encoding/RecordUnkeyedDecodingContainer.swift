import Foundation

/// Reads the elements of an unkeyed container in order.
struct RecordUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: RecordDecoderImpl
    let reader: RecordReader
    let codingPath: [any CodingKey]
    let count: Int?
    /// Number of containers enclosing the elements (this one included).
    let depth: Int
    let end: Int
    private(set) var currentIndex: Int
    /// Offset of the next element.
    private var cursor: Int

    init(decoder: RecordDecoderImpl, codingPath: [any CodingKey], count: Int, elements: Range<Int>, depth: Int) {
        self.decoder = decoder
        self.reader = decoder.reader
        self.codingPath = codingPath
        self.count = count
        self.depth = depth
        self.end = elements.upperBound
        self.currentIndex = 0
        self.cursor = elements.lowerBound
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private var indexPath: [any CodingKey] { codingPath + [RecordCodingKey(index: currentIndex)] }

    private func checkNotAtEnd(_ type: Any.Type) throws {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: indexPath,
                debugDescription: "Unkeyed container has no element at index \(currentIndex): all \(count ?? 0) were read"
            ))
        }
    }

    @inline(__always)
    private mutating func read<T>(_ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws -> T {
        try checkNotAtEnd(T.self)
        do {
            let (value, next) = try read(cursor, end)
            cursor = next
            currentIndex += 1
            return value
        } catch {
            throw error.decodingError(path: indexPath)
        }
    }

    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd(Any?.self)
        if reader.isNil(at: cursor, limit: end) {
            cursor += 1
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(reader.readBool) }
    mutating func decode(_ type: String.Type) throws -> String { try read(reader.readString) }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(reader.readDouble) }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(reader.readFloat) }
    mutating func decode(_ type: Int.Type) throws -> Int { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(Int.self, at: p, limit: l) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(Int8.self, at: p, limit: l) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(Int16.self, at: p, limit: l) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(Int32.self, at: p, limit: l) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(Int64.self, at: p, limit: l) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(UInt.self, at: p, limit: l) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(UInt8.self, at: p, limit: l) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(UInt16.self, at: p, limit: l) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(UInt32.self, at: p, limit: l) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let r = reader; return try read { p, l throws(RecordProblem) in try r.readInteger(UInt64.self, at: p, limit: l) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try checkNotAtEnd(type)
        let path = indexPath
        var next = 0
        let value = try decoder.decodeValue(type, at: cursor, limit: end, depth: depth, end: &next, path: { path })
        cursor = next
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try withNextElement(type) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try withNextElement([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try checkNotAtEnd(Any.self)
        let nested = RecordDecoderImpl(reader: reader, position: cursor, limit: end)
        do {
            nested.limit = try reader.valueEnd(at: cursor, limit: end)
        } catch {
            throw error.decodingError(path: indexPath)
        }
        nested.depth = depth
        nested.codingPath = indexPath
        cursor = nested.limit
        currentIndex += 1
        return nested
    }

    /// Points the shared decoder at the next element, runs `body`, then moves past the element.
    private mutating func withNextElement<R>(_ type: Any.Type, _ body: (RecordDecoderImpl) throws -> R) throws -> R {
        try checkNotAtEnd(type)
        let path = indexPath
        let valueEnd: Int
        do {
            valueEnd = try reader.valueEnd(at: cursor, limit: end)
        } catch {
            throw error.decodingError(path: path)
        }
        let saved = (decoder.position, decoder.limit, decoder.depth, decoder.codingPath)
        decoder.position = cursor
        decoder.limit = valueEnd
        decoder.depth = depth
        decoder.codingPath = path
        defer { (decoder.position, decoder.limit, decoder.depth, decoder.codingPath) = saved }
        let result = try body(decoder)
        cursor = valueEnd
        currentIndex += 1
        return result
    }
}
