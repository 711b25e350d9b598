import Foundation

/// The `Decoder` handed to `init(from:)` implementations. One instance serves a whole
/// record: it is re-pointed at each nested value and restored afterwards.
final class RecordDecoderImpl: Decoder, SingleValueDecodingContainer {
    let reader: RecordReader
    /// Start of the value this decoder currently stands for.
    var position: Int
    /// End of the value this decoder currently stands for.
    var limit: Int
    /// Number of containers enclosing the current value.
    var depth: Int
    var codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(reader: RecordReader, position: Int, limit: Int) {
        self.reader = reader
        self.position = position
        self.limit = limit
        self.depth = 0
        self.codingPath = []
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkDepth()
        let body: Range<Int>
        do {
            body = try reader.keyedBody(at: position, limit: limit, type: [String: Any].self)
        } catch {
            throw error.decodingError(path: codingPath)
        }
        return KeyedDecodingContainer(
            RecordKeyedDecodingContainer<Key>(core: RecordKeyedDecodingCore(decoder: self, codingPath: codingPath, body: body, depth: depth + 1))
        )
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkDepth()
        do {
            let (count, elements) = try reader.unkeyedBody(at: position, limit: limit, type: [Any].self)
            return RecordUnkeyedDecodingContainer(decoder: self, codingPath: codingPath, count: count, elements: elements, depth: depth + 1)
        } catch {
            throw error.decodingError(path: codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    private func checkDepth() throws {
        guard depth < RecordFormat.maxDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Containers nested deeper than \(RecordFormat.maxDepth) levels at byte offset \(position); the record is corrupt or too deep"
            ))
        }
    }

    // MARK: Values

    /// Decodes any value at `position` (bounded by `limit`); `depth` is the number of
    /// containers enclosing it and `path` its coding path. Sets `end` to the value's end.
    ///
    /// The types the format stores natively are read directly, also when they arrive through
    /// a generic `decode<T>` call (e.g. the elements of `[Int]`).
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, at position: Int, limit: Int, depth: Int, end: inout Int, path: () -> [any CodingKey]
    ) throws -> T {
        let reader = reader
        if T.self == String.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readString(at: position, limit: limit) } }
        if T.self == Date.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readDate(at: position, limit: limit) } }
        if T.self == Int.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(Int.self, at: position, limit: limit) } }
        if T.self == Int64.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(Int64.self, at: position, limit: limit) } }
        if T.self == Double.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readDouble(at: position, limit: limit) } }
        if T.self == Bool.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readBool(at: position, limit: limit) } }
        if T.self == URL.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readURL(at: position, limit: limit) } }
        if T.self == Data.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readData(at: position, limit: limit) } }
        if T.self == UUID.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readUUID(at: position, limit: limit) } }
        if T.self == Float.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readFloat(at: position, limit: limit) } }
        if T.self == Int32.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(Int32.self, at: position, limit: limit) } }
        if T.self == Int16.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(Int16.self, at: position, limit: limit) } }
        if T.self == Int8.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(Int8.self, at: position, limit: limit) } }
        if T.self == UInt.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(UInt.self, at: position, limit: limit) } }
        if T.self == UInt64.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(UInt64.self, at: position, limit: limit) } }
        if T.self == UInt32.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(UInt32.self, at: position, limit: limit) } }
        if T.self == UInt16.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(UInt16.self, at: position, limit: limit) } }
        if T.self == UInt8.self { return try primitive(end: &end, path) { () throws(RecordProblem) in try reader.readInteger(UInt8.self, at: position, limit: limit) } }

        let valueEnd: Int
        do {
            valueEnd = try reader.valueEnd(at: position, limit: limit)
        } catch {
            throw error.decodingError(path: path())
        }
        let saved = (self.position, self.limit, self.depth, self.codingPath)
        self.position = position
        self.limit = valueEnd
        self.depth = depth
        self.codingPath = path()
        defer { (self.position, self.limit, self.depth, self.codingPath) = saved }
        let value = try T(from: self)
        end = valueEnd
        return value
    }

    /// Runs a concrete reader and hands its value back as `T` (the caller checked `V == T`).
    @inline(__always)
    private func primitive<V, T>(
        end: inout Int, _ path: () -> [any CodingKey], _ read: () throws(RecordProblem) -> (V, Int)
    ) throws -> T {
        do {
            let (value, next) = try read()
            end = next
            return unsafeBitCast(value, to: T.self)
        } catch {
            throw error.decodingError(path: path())
        }
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        reader.isNil(at: position, limit: limit)
    }

    @inline(__always)
    private func single<T>(_ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws -> T {
        do {
            return try read(position, limit).0
        } catch {
            throw error.decodingError(path: codingPath)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try single(reader.readBool) }
    func decode(_ type: String.Type) throws -> String { try single(reader.readString) }
    func decode(_ type: Double.Type) throws -> Double { try single(reader.readDouble) }
    func decode(_ type: Float.Type) throws -> Float { try single(reader.readFloat) }
    func decode(_ type: Int.Type) throws -> Int { try single { p, l throws(RecordProblem) in try reader.readInteger(Int.self, at: p, limit: l) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try single { p, l throws(RecordProblem) in try reader.readInteger(Int8.self, at: p, limit: l) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try single { p, l throws(RecordProblem) in try reader.readInteger(Int16.self, at: p, limit: l) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try single { p, l throws(RecordProblem) in try reader.readInteger(Int32.self, at: p, limit: l) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try single { p, l throws(RecordProblem) in try reader.readInteger(Int64.self, at: p, limit: l) } }
    func decode(_ type: UInt.Type) throws -> UInt { try single { p, l throws(RecordProblem) in try reader.readInteger(UInt.self, at: p, limit: l) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try single { p, l throws(RecordProblem) in try reader.readInteger(UInt8.self, at: p, limit: l) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try single { p, l throws(RecordProblem) in try reader.readInteger(UInt16.self, at: p, limit: l) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try single { p, l throws(RecordProblem) in try reader.readInteger(UInt32.self, at: p, limit: l) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try single { p, l throws(RecordProblem) in try reader.readInteger(UInt64.self, at: p, limit: l) } }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A single-value container adds no nesting level: the wrapped value keeps this depth.
        let path = codingPath
        var end = 0
        return try decodeValue(type, at: position, limit: limit, depth: depth, end: &end, path: { path })
    }
}
