/// The `KeyedDecodingContainerProtocol` face of ``RecordKeyedDecodingCore``: turns each key
/// into its name, forwards, and attaches the coding path to errors.
struct RecordKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let core: RecordKeyedDecodingCore

    var codingPath: [any CodingKey] { core.codingPath }

    @inline(__always)
    private func fail(_ problem: RecordProblem, _ key: Key) -> DecodingError {
        if problem.kind == .keyNotFound {
            return .keyNotFound(key, DecodingError.Context(codingPath: core.codingPath, debugDescription: problem.message))
        }
        return problem.decodingError(path: core.codingPath + [key])
    }

    var allKeys: [Key] { core.allNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { ((try? core.locate(key.stringValue)) ?? nil) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        do { return try core.decodeNil(key.stringValue) } catch { throw fail(error, key) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        do { return try core.bool(key.stringValue) } catch { throw fail(error, key) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        do { return try core.string(key.stringValue) } catch { throw fail(error, key) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        do { return try core.double(key.stringValue) } catch { throw fail(error, key) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        do { return try core.float(key.stringValue) } catch { throw fail(error, key) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        do { return try core.integer(key.stringValue, as: Int.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        do { return try core.integer(key.stringValue, as: Int8.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        do { return try core.integer(key.stringValue, as: Int16.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        do { return try core.integer(key.stringValue, as: Int32.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        do { return try core.integer(key.stringValue, as: Int64.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        do { return try core.integer(key.stringValue, as: UInt.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        do { return try core.integer(key.stringValue, as: UInt8.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        do { return try core.integer(key.stringValue, as: UInt16.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        do { return try core.integer(key.stringValue, as: UInt32.self) } catch { throw fail(error, key) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        do { return try core.integer(key.stringValue, as: UInt64.self) } catch { throw fail(error, key) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let position: Int
        do { position = try core.require(key.stringValue) } catch { throw fail(error, key) }
        var next = 0
        let value = try core.decoder.decodeValue(type, at: position, limit: core.end, depth: core.depth, end: &next) {
            core.codingPath + [key]
        }
        core.cursor = next
        return value
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        do { return try core.boolIfPresent(key.stringValue) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        do { return try core.stringIfPresent(key.stringValue) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        do { return try core.doubleIfPresent(key.stringValue) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        do { return try core.floatIfPresent(key.stringValue) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        do { return try core.integerIfPresent(key.stringValue, as: Int.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        do { return try core.integerIfPresent(key.stringValue, as: Int8.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        do { return try core.integerIfPresent(key.stringValue, as: Int16.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        do { return try core.integerIfPresent(key.stringValue, as: Int32.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        do { return try core.integerIfPresent(key.stringValue, as: Int64.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        do { return try core.integerIfPresent(key.stringValue, as: UInt.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        do { return try core.integerIfPresent(key.stringValue, as: UInt8.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        do { return try core.integerIfPresent(key.stringValue, as: UInt16.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        do { return try core.integerIfPresent(key.stringValue, as: UInt32.self) } catch { throw fail(error, key) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        do { return try core.integerIfPresent(key.stringValue, as: UInt64.self) } catch { throw fail(error, key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let found: Int?
        do { found = try core.locate(key.stringValue) } catch { throw fail(error, key) }
        guard let position = found else { return nil }
        if core.reader.isNil(at: position, limit: core.end) {
            core.cursor = position + 1
            return nil
        }
        var next = 0
        let value = try core.decoder.decodeValue(type, at: position, limit: core.end, depth: core.depth, end: &next) {
            core.codingPath + [key]
        }
        core.cursor = next
        return value
    }

    // MARK: Nesting

    private func require(_ key: Key) throws -> Int {
        do { return try core.require(key.stringValue) } catch { throw fail(error, key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let position = try require(key)
        return try core.withDecoder(at: position, path: core.codingPath + [key]) { try $0.container(keyedBy: type) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let position = try require(key)
        return try core.withDecoder(at: position, path: core.codingPath + [key]) { try $0.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        try makeSuperDecoder(name: "super", key: RecordCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try makeSuperDecoder(name: key.stringValue, key: key)
    }

    /// A separate decoder for the entry `name` (it may outlive this call). A missing entry
    /// gives a decoder with no value, on which every read but `decodeNil` fails.
    private func makeSuperDecoder(name: String, key: any CodingKey) throws -> any Decoder {
        let path = core.codingPath + [key]
        let found: Int?
        do { found = try core.locate(name) } catch { throw error.decodingError(path: path) }
        let nested = RecordDecoderImpl(reader: core.reader, position: found ?? core.end, limit: core.end)
        if let position = found {
            do { nested.limit = try core.reader.valueEnd(at: position, limit: core.end) } catch { throw error.decodingError(path: path) }
        }
        nested.depth = core.depth
        nested.codingPath = path
        return nested
    }
}
