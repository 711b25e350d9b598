// JSONTapeDecoder's three containers are written here beside it: each only walks the tape for the
// decoder, and none is used anywhere else.
import Foundation

/// The `Decoder` behind ``RecordJSONReader``: decodes any `Decodable` from a ``JSONTape``, with
/// `Date`, `URL` and `Data` read the way `RecordJSON.decoder()` reads them.
///
/// Rules: it never decides anything `JSONDecoder` might decide differently. Every error it throws
/// — a missing key, a wrong type, a number written `1e2`, a value it does not take on (a
/// `Decimal`, `superDecoder`) — also marks the whole decoding ``State/failed``, even when the
/// type being decoded catches the error and goes on; the reader then decodes the record again
/// with `JSONDecoder`, whose value or error is the one used. So a record decodes here only when
/// every question asked had the answer `JSONDecoder` would give.
final class JSONTapeDecoder: Decoder {
    /// What one decoding shares: the tape (read through a ``JSONTapeView`` of a copy of its
    /// entries, which this state owns), and whether anything failed.
    final class State {
        let view: JSONTapeView
        let keysDistinct: Bool
        var failed = false
        private let storage: UnsafeMutableBufferPointer<JSONTape.Entry>

        init(tape: JSONTape) {
            storage = .allocate(capacity: tape.entries.count)
            _ = storage.initialize(from: tape.entries)
            view = JSONTapeView(entries: UnsafeBufferPointer(storage), bytes: tape.bytes)
            keysDistinct = tape.rejectsAmbiguousKeys
        }

        deinit { storage.deallocate() }
    }

    /// Thrown (after marking the state failed) wherever this decoder will not answer.
    struct Unsupported: Error {}

    let state: State
    let index: Int
    /// For an object, the tape index of the key its keyed container found last (0: none yet).
    var lastKey = 0
    private let parent: JSONTapeDecoder?
    private let key: (any CodingKey)?

    init(state: State, index: Int, parent: JSONTapeDecoder? = nil, key: (any CodingKey)? = nil) {
        self.state = state
        self.index = index
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: JSONTapeDecoder? = self
        while let current = decoder {
            if let key = current.key { path.append(key) }
            decoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func fail() -> Unsupported {
        state.failed = true
        return Unsupported()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard state.view.entries[index].kind == .object else { throw fail() }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard state.view.entries[index].kind == .array else { throw fail() }
        return UnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    // MARK: Values at a tape index

    func decodeNil(at index: Int) -> Bool { state.view.entries[index].kind == .null }

    func decodeBool(at index: Int) throws -> Bool {
        switch state.view.entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw fail()
        }
    }

    func decodeString(at index: Int) throws -> String {
        do { return try state.view.string(index) } catch { throw fail() }
    }

    func decodeInteger<T: FixedWidthInteger>(at index: Int, as type: T.Type) throws -> T {
        do { return try state.view.integer(index, as: T.self) } catch { throw fail() }
    }

    func decodeDouble(at index: Int) throws -> Double {
        do { return try state.view.double(index) } catch { throw fail() }
    }

    func decodeFloat(at index: Int) throws -> Float {
        do { return try state.view.float(index) } catch { throw fail() }
    }

    /// A `Decodable` at `index`, reached through `key`.
    func decode<T: Decodable>(_ type: T.Type, at index: Int, key: (any CodingKey)?) throws -> T {
        if T.self == Date.self {
            guard let date = state.view.date(index) else { throw fail() }
            return date as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try decodeString(at: index)) else { throw fail() }
            return url as! T
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try decodeString(at: index)) else { throw fail() }
            return data as! T
        }
        if T.self == Decimal.self { throw fail() }
        do {
            return try T(from: JSONTapeDecoder(state: state, index: index, parent: self, key: key))
        } catch {
            throw fail()
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: JSONTapeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        private var tape: JSONTapeView { decoder.state.view }

        init(decoder: JSONTapeDecoder) { self.decoder = decoder }

        /// The tape index of the value under `key`, or nil.
        private func find(_ key: Key) -> Int? {
            var name = key.stringValue
            let state = decoder.state
            let found = name.withUTF8 { state.view.member(of: decoder.index, named: $0, near: decoder.lastKey, keysDistinct: state.keysDistinct) }
            if let found { decoder.lastKey = found - 1 }
            return found
        }

        private func require(_ key: Key) throws -> Int {
            guard let index = find(key) else { throw decoder.fail() }
            return index
        }

        var allKeys: [Key] {
            let tape = self.tape
            let end = Int(tape.entries[decoder.index].next)
            var keys: [Key] = []
            var member = decoder.index + 1
            while member < end {
                guard let name = try? tape.string(member) else {
                    decoder.state.failed = true
                    return keys
                }
                if let key = Key(stringValue: name) { keys.append(key) }
                member = Int(tape.entries[member + 1].next)
            }
            return keys
        }

        func contains(_ key: Key) -> Bool { find(key) != nil }

        func decodeNil(forKey key: Key) throws -> Bool { decoder.decodeNil(at: try require(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.decodeBool(at: try require(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.decodeString(at: try require(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.decodeDouble(at: try require(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.decodeFloat(at: try require(key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.decodeInteger(at: try require(key), as: Int.self) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.decodeInteger(at: try require(key), as: Int8.self) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.decodeInteger(at: try require(key), as: Int16.self) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.decodeInteger(at: try require(key), as: Int32.self) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.decodeInteger(at: try require(key), as: Int64.self) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.decodeInteger(at: try require(key), as: UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.decodeInteger(at: try require(key), as: UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.decodeInteger(at: try require(key), as: UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.decodeInteger(at: try require(key), as: UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.decodeInteger(at: try require(key), as: UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decode(T.self, at: try require(key), key: key) }

        /// The value under `key` unless it is missing or null (one lookup, not three).
        private func present(_ key: Key) -> Int? {
            guard let index = find(key), !decoder.decodeNil(at: index) else { return nil }
            return index
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try decoder.decodeBool(at: $0) } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try decoder.decodeString(at: $0) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try decoder.decodeDouble(at: $0) } }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try decoder.decodeInteger(at: $0, as: Int.self) } }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try decoder.decodeInteger(at: $0, as: Int64.self) } }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(key).map { try decoder.decode(T.self, at: $0, key: key) } }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try JSONTapeDecoder(state: decoder.state, index: try require(key), parent: decoder, key: key).container(keyedBy: NestedKey.self)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONTapeDecoder(state: decoder.state, index: try require(key), parent: decoder, key: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw decoder.fail() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.fail() }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: JSONTapeDecoder
        private(set) var currentIndex = 0
        /// The tape index of the next element.
        private var position: Int
        private let end: Int
        let count: Int?

        init(decoder: JSONTapeDecoder) {
            self.decoder = decoder
            let tape = decoder.state.view
            position = decoder.index + 1
            end = Int(tape.entries[decoder.index].next)
            var elements = 0
            var cursor = position
            while cursor < end {
                elements += 1
                cursor = Int(tape.entries[cursor].next)
            }
            count = elements
        }

        var codingPath: [any CodingKey] { decoder.codingPath }
        var isAtEnd: Bool { position >= end }

        private mutating func take() throws -> Int {
            guard position < end else { throw decoder.fail() }
            let index = position
            position = Int(decoder.state.view.entries[index].next)
            currentIndex += 1
            return index
        }

        mutating func decodeNil() throws -> Bool {
            guard position < end else { throw decoder.fail() }
            guard decoder.decodeNil(at: position) else { return false }
            _ = try take()
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: try take()) }
        mutating func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: try take()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: try take()) }
        mutating func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat(at: try take()) }
        mutating func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(at: try take(), as: Int.self) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(at: try take(), as: Int8.self) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(at: try take(), as: Int16.self) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(at: try take(), as: Int32.self) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(at: try take(), as: Int64.self) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(at: try take(), as: UInt.self) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(at: try take(), as: UInt8.self) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(at: try take(), as: UInt16.self) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(at: try take(), as: UInt32.self) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(at: try take(), as: UInt64.self) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let key = RecordCodingKey(index: currentIndex)
            return try decoder.decode(T.self, at: try take(), key: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let key = RecordCodingKey(index: currentIndex)
            return try JSONTapeDecoder(state: decoder.state, index: try take(), parent: decoder, key: key).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let key = RecordCodingKey(index: currentIndex)
            return try JSONTapeDecoder(state: decoder.state, index: try take(), parent: decoder, key: key).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { throw decoder.fail() }
    }

    private struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: JSONTapeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        private var index: Int { decoder.index }

        func decodeNil() -> Bool { decoder.decodeNil(at: index) }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(at: index) }
        func decode(_ type: String.Type) throws -> String { try decoder.decodeString(at: index) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(at: index) }
        func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloat(at: index) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(at: index, as: Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(at: index, as: Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(at: index, as: Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(at: index, as: Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(at: index, as: Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(at: index, as: UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(at: index, as: UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(at: index, as: UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(at: index, as: UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(at: index, as: UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self, at: index, key: nil) }
    }
}
