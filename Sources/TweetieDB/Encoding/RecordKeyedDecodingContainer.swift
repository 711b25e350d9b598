import Foundation

/// Reads the entries of a keyed container. Entries are looked up by key name; a cursor
/// remembers where the previous lookup ended so that fields read in the order they were
/// written are found with a single key comparison, and any other order falls back to a scan.
final class RecordKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordDecoderImpl
    let reader: RecordReader
    let codingPath: [any CodingKey]
    let start: Int
    let end: Int
    /// Number of containers enclosing the entries' values (this one included).
    let depth: Int
    /// Offset of the entry expected to be read next.
    var cursor: Int

    init(decoder: RecordDecoderImpl, codingPath: [any CodingKey], body: Range<Int>, depth: Int) {
        self.decoder = decoder
        self.reader = decoder.reader
        self.codingPath = codingPath
        self.start = body.lowerBound
        self.end = body.upperBound
        self.depth = depth
        self.cursor = body.lowerBound
    }

    // MARK: Lookup

    /// The offset of the value stored under `key`, or `nil` if there is no such entry.
    /// When found, `cursor` is left on that entry.
    @inline(__always)
    private func locate(_ key: Key) throws -> Int? {
        var name = key.stringValue
        let result = name.withUTF8 { wanted -> Result<Int?, RecordProblem> in
            do throws(RecordProblem) {
                return .success(try find(wanted))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let position): return position
        case .failure(let problem): throw problem.decodingError(path: codingPath)
        }
    }

    @inline(__always)
    private func find(_ wanted: UnsafeBufferPointer<UInt8>) throws(RecordProblem) -> Int? {
        if cursor < end {
            let entry = try reader.entryKey(at: cursor, limit: end)
            if keyMatches(entry.key, wanted) {
                return entry.value
            }
        }
        var position = start
        while position < end {
            let entry = try reader.entryKey(at: position, limit: end)
            if keyMatches(entry.key, wanted) {
                cursor = position
                return entry.value
            }
            position = try reader.valueEnd(at: entry.value, limit: end)
        }
        return nil
    }

    @inline(__always)
    private func keyMatches(_ stored: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == wanted.count else { return false }
        guard let wantedBase = wanted.baseAddress else { return true }
        return memcmp(reader.base + stored.lowerBound, wantedBase, stored.count) == 0
    }

    @inline(__always)
    private func require(_ key: Key) throws -> Int {
        guard let position = try locate(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value for key \"\(key.stringValue)\" in the keyed container at byte offset \(start)"
            ))
        }
        return position
    }

    @inline(__always)
    private func read<T>(_ key: Key, _ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws -> T {
        let position = try require(key)
        do {
            let (value, next) = try read(position, end)
            cursor = next
            return value
        } catch {
            throw error.decodingError(path: codingPath + [key])
        }
    }

    @inline(__always)
    private func readIfPresent<T>(_ key: Key, _ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws -> T? {
        guard let position = try locate(key) else { return nil }
        if reader.isNil(at: position, limit: end) {
            cursor = position + 1
            return nil
        }
        do {
            let (value, next) = try read(position, end)
            cursor = next
            return value
        } catch {
            throw error.decodingError(path: codingPath + [key])
        }
    }

    // MARK: KeyedDecodingContainerProtocol

    var allKeys: [Key] {
        var keys: [Key] = []
        var position = start
        while position < end {
            guard let entry = try? reader.entryKey(at: position, limit: end),
                  let next = try? reader.valueEnd(at: entry.value, limit: end) else { break }
            let name = String(decoding: UnsafeBufferPointer(start: reader.base + entry.key.lowerBound, count: entry.key.count), as: UTF8.self)
            if let key = Key(stringValue: name) {
                keys.append(key)
            }
            position = next
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        (try? locate(key)) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let position = try require(key)
        if reader.isNil(at: position, limit: end) {
            cursor = position + 1
            return true
        }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key, reader.readBool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key, reader.readString) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key, reader.readDouble) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key, reader.readFloat) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(Int.self, at: p, limit: l) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(Int8.self, at: p, limit: l) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(Int16.self, at: p, limit: l) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(Int32.self, at: p, limit: l) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(Int64.self, at: p, limit: l) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt.self, at: p, limit: l) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt8.self, at: p, limit: l) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt16.self, at: p, limit: l) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt32.self, at: p, limit: l) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt64.self, at: p, limit: l) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let position = try require(key)
        let (value, next) = try decoder.decodeValue(type, at: position, limit: end, depth: depth, path: { codingPath + [key] })
        cursor = next
        return value
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(key, reader.readBool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try readIfPresent(key, reader.readString) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(key, reader.readDouble) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try readIfPresent(key, reader.readFloat) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(Int.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(Int8.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(Int16.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(Int32.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(Int64.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt8.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt16.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt32.self, at: p, limit: l) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(key) { p, l throws(RecordProblem) in try reader.readInteger(UInt64.self, at: p, limit: l) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let position = try locate(key) else { return nil }
        if reader.isNil(at: position, limit: end) {
            cursor = position + 1
            return nil
        }
        let (value, next) = try decoder.decodeValue(type, at: position, limit: end, depth: depth, path: { codingPath + [key] })
        cursor = next
        return value
    }

    // MARK: Nesting

    private func nestedDecoder(forKey key: Key) throws -> (position: Int, path: [any CodingKey]) {
        let position = try require(key)
        return (position, codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let (position, path) = try nestedDecoder(forKey: key)
        return try withDecoder(at: position, path: path) { try $0.container(keyedBy: type) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (position, path) = try nestedDecoder(forKey: key)
        return try withDecoder(at: position, path: path) { try $0.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: "super", key: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key.stringValue, key: key)
    }

    private func superDecoder(named name: String, key: Key?) throws -> any Decoder {
        let codingKey: any CodingKey = key ?? RecordCodingKey(stringValue: name)
        var position: Int?
        if let key {
            position = try locate(key)
        } else {
            position = try RecordKeyedDecodingContainer<RecordCodingKey>(
                decoder: decoder, codingPath: codingPath, body: start..<end, depth: depth
            ).locateSuper()
        }
        // A missing super entry decodes as nil, like JSONDecoder.
        let nested = RecordDecoderImpl(reader: reader, position: position ?? end, limit: end)
        if let position {
            do {
                nested.limit = try reader.valueEnd(at: position, limit: end)
            } catch {
                throw error.decodingError(path: codingPath + [codingKey])
            }
        }
        nested.depth = depth
        nested.codingPath = codingPath + [codingKey]
        return nested
    }

    /// Runs `body` with the shared decoder temporarily pointed at the value at `position`.
    private func withDecoder<R>(at position: Int, path: [any CodingKey], _ body: (RecordDecoderImpl) throws -> R) throws -> R {
        let valueEnd: Int
        do {
            valueEnd = try reader.valueEnd(at: position, limit: end)
        } catch {
            throw error.decodingError(path: path)
        }
        let saved = (decoder.position, decoder.limit, decoder.depth, decoder.codingPath)
        decoder.position = position
        decoder.limit = valueEnd
        decoder.depth = depth
        decoder.codingPath = path
        defer { (decoder.position, decoder.limit, decoder.depth, decoder.codingPath) = saved }
        return try body(decoder)
    }
}

extension RecordKeyedDecodingContainer where Key == RecordCodingKey {
    fileprivate func locateSuper() throws -> Int? {
        try locate(RecordCodingKey(stringValue: "super"))
    }
}
