// JSONNodeEncoder's three containers are written here beside it: each is a few lines that only
// forward to the encoder's `box` and the node they fill, and none is used anywhere else.
import Foundation

/// The `Encoder` behind ``RecordJSONWriter``: builds a ``JSONNode`` tree from any `Encodable`,
/// treating `Date`, `URL` and `Data` the way `RecordJSON.encoder()` does (ISO 8601 with
/// milliseconds, the absolute string, Base64).
///
/// Rules: whatever this encoder cannot promise to write exactly as `JSONEncoder` would (a
/// `Decimal`, a non-finite number, a value that encodes nothing, `superEncoder`, two different
/// containers asked of one encoder) makes it throw ``Unsupported``, and the writer encodes that
/// value with `JSONEncoder` instead: the output never differs, only its speed.
final class JSONNodeEncoder: Encoder {
    /// This value cannot be written here exactly as `JSONEncoder` writes it.
    struct Unsupported: Error {}

    private let parent: JSONNodeEncoder?
    private let key: (any CodingKey)?
    /// Set when a container request could not be honoured (containers cannot throw).
    private(set) var failed = false
    private(set) var node: JSONNode?

    init(parent: JSONNodeEncoder? = nil, key: (any CodingKey)? = nil) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: JSONNodeEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch node {
        case nil:
            let object = JSONObjectNode(capacity: 16)
            node = .object(object)
            return KeyedEncodingContainer(KeyedContainer(encoder: self, object: object))
        case .object(let object)?:
            return KeyedEncodingContainer(KeyedContainer(encoder: self, object: object))
        default:
            markFailed()
            return KeyedEncodingContainer(KeyedContainer(encoder: self, object: JSONObjectNode()))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch node {
        case nil:
            let array = JSONArrayNode()
            node = .array(array)
            return UnkeyedContainer(encoder: self, array: array)
        case .array(let array)?:
            return UnkeyedContainer(encoder: self, array: array)
        default:
            markFailed()
            return UnkeyedContainer(encoder: self, array: JSONArrayNode())
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    private func markFailed() {
        var encoder: JSONNodeEncoder? = self
        while let current = encoder {
            current.failed = true
            encoder = current.parent
        }
    }

    /// Stores a single value; a second one, or one after a container, is unsupported.
    fileprivate func setSingle(_ value: JSONNode) throws {
        guard node == nil else { throw Unsupported() }
        node = value
    }

    /// The node of `value`, encoded under `key` (the whole value when `key` is nil).
    func box<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONNode {
        // Type comparisons, not casts: these are structs, so `T == Date` is `value as? Date`
        // (an optional Date reaches here again, unwrapped, through Optional's encode), and a
        // comparison costs a pointer test where a cast walks the runtime's conformance tables.
        if T.self == Date.self { return .string(ISO8601.string(from: value as! Date)) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == Decimal.self { throw Unsupported() }
        let encoder = JSONNodeEncoder(parent: self, key: key)
        try value.encode(to: encoder)
        guard !encoder.failed, let node = encoder.node else { throw Unsupported() }
        return node
    }

    fileprivate static func finite(_ value: Double) throws -> JSONNode {
        guard value.isFinite else { throw Unsupported() }
        return .double(value)
    }

    fileprivate static func finite(_ value: Float) throws -> JSONNode {
        guard value.isFinite else { throw Unsupported() }
        return .float(value)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: JSONNodeEncoder
        let object: JSONObjectNode
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: key.stringValue) }
        mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
        mutating func encode(_ value: Double, forKey key: Key) throws { object.set(try finite(value), for: key.stringValue) }
        mutating func encode(_ value: Float, forKey key: Key) throws { object.set(try finite(value), for: key.stringValue) }
        mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(.int(Int64(value)), for: key.stringValue) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(value), for: key.stringValue) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(.uint(UInt64(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.uint(value), for: key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            object.set(try encoder.box(value, key: key), for: key.stringValue)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            guard let nested = object.object(for: key.stringValue) else {
                encoder.markFailed()
                return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, object: JSONObjectNode()))
            }
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: JSONNodeEncoder(parent: encoder, key: key), object: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            guard let nested = object.array(for: key.stringValue) else {
                encoder.markFailed()
                return UnkeyedContainer(encoder: encoder, array: JSONArrayNode())
            }
            return UnkeyedContainer(encoder: JSONNodeEncoder(parent: encoder, key: key), array: nested)
        }

        mutating func superEncoder() -> any Encoder {
            encoder.markFailed()
            return JSONNodeEncoder()
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.markFailed()
            return JSONNodeEncoder()
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: JSONNodeEncoder
        let array: JSONArrayNode
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { array.items.count }

        mutating func encodeNil() throws { array.items.append(.null) }
        mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
        mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
        mutating func encode(_ value: Double) throws { array.items.append(try finite(value)) }
        mutating func encode(_ value: Float) throws { array.items.append(try finite(value)) }
        mutating func encode(_ value: Int) throws { array.items.append(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { array.items.append(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { array.items.append(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { array.items.append(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { array.items.append(.int(value)) }
        mutating func encode(_ value: UInt) throws { array.items.append(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { array.items.append(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { array.items.append(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { array.items.append(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { array.items.append(.uint(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            array.items.append(try encoder.box(value, key: RecordCodingKey(index: array.items.count)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let object = JSONObjectNode()
            let key = RecordCodingKey(index: array.items.count)
            array.items.append(.object(object))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: JSONNodeEncoder(parent: encoder, key: key), object: object))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = JSONArrayNode()
            let key = RecordCodingKey(index: array.items.count)
            array.items.append(.array(nested))
            return UnkeyedContainer(encoder: JSONNodeEncoder(parent: encoder, key: key), array: nested)
        }

        mutating func superEncoder() -> any Encoder {
            encoder.markFailed()
            return JSONNodeEncoder()
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: JSONNodeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { try encoder.setSingle(.null) }
        mutating func encode(_ value: Bool) throws { try encoder.setSingle(.bool(value)) }
        mutating func encode(_ value: String) throws { try encoder.setSingle(.string(value)) }
        mutating func encode(_ value: Double) throws { try encoder.setSingle(try finite(value)) }
        mutating func encode(_ value: Float) throws { try encoder.setSingle(try finite(value)) }
        mutating func encode(_ value: Int) throws { try encoder.setSingle(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { try encoder.setSingle(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { try encoder.setSingle(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { try encoder.setSingle(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { try encoder.setSingle(.int(value)) }
        mutating func encode(_ value: UInt) throws { try encoder.setSingle(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { try encoder.setSingle(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { try encoder.setSingle(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { try encoder.setSingle(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { try encoder.setSingle(.uint(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.setSingle(try encoder.box(value, key: nil)) }
    }
}
