// JSONTextEncoder's three containers are written here beside it: each is a few lines that only
// forward to the JSONScratch they fill, and none is used anywhere else.
import Foundation

/// The `Encoder` behind ``RecordJSONWriter``: writes any `Encodable` into a ``JSONScratch``,
/// treating `Date`, `URL` and `Data` the way `RecordJSON.encoder()` does (ISO 8601 with
/// milliseconds, the absolute string, Base64).
///
/// An encoder is a reference to the scratch and the entry it fills, so handing one to
/// `encode(to:)` allocates nothing; scalars become text as they are encoded.
///
/// Rules: whatever this encoder cannot promise to write exactly as `JSONEncoder` would (a
/// `Decimal`, a non-finite number, a value that encodes nothing, `superEncoder`, two different
/// containers asked of one encoder, a single value encoded twice, an error caught and ignored
/// by the value's own `encode(to:)`) throws ``JSONScratch/Unsupported`` or sets
/// ``JSONScratch/failed``, and the writer encodes that value with `JSONEncoder` instead: the
/// output never differs, only its speed.
///
/// ```swift
/// try JSONTextEncoder.box(tweet, scratch: scratch, slot: 0)
/// ```
struct JSONTextEncoder: Encoder {
    let scratch: JSONScratch
    /// The entry whose value this encoder writes.
    let slot: Int

    var codingPath: [any CodingKey] { scratch.codingPath(to: slot) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(scratch: scratch, container: scratch.container(at: slot, object: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(scratch: scratch, container: scratch.container(at: slot, object: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(scratch: scratch, slot: slot)
    }

    /// Encodes `value` as the value of `slot`, which must be unset.
    static func box<T: Encodable>(_ value: T, scratch: JSONScratch, slot: Int) throws {
        try scratch.requireUnset(slot)
        // Type comparisons, not casts: `T == Date` costs a pointer test where `value as? Date`
        // walks the runtime's conformance tables (an optional Date reaches here again, unwrapped,
        // through Optional's encode). Each `unsafeBitCast` is to the type `T` was just found to be.
        if T.self == String.self {
            scratch.write(unsafeBitCast(value, to: String.self), to: slot)
        } else if T.self == Int.self {
            scratch.write(integer: Int64(unsafeBitCast(value, to: Int.self)), to: slot)
        } else if T.self == Int64.self {
            scratch.write(integer: unsafeBitCast(value, to: Int64.self), to: slot)
        } else if T.self == Bool.self {
            scratch.write(unsafeBitCast(value, to: Bool.self), to: slot)
        } else if T.self == Double.self {
            try scratch.write(unsafeBitCast(value, to: Double.self), to: slot)
        } else if T.self == Date.self {
            try scratch.write(unsafeBitCast(value, to: Date.self), to: slot)
        } else if T.self == URL.self {
            scratch.write(unsafeBitCast(value, to: URL.self).absoluteString, to: slot)
        } else if T.self == Data.self {
            scratch.write(unsafeBitCast(value, to: Data.self).base64EncodedString(), to: slot)
        } else if T.self == Decimal.self {
            throw scratch.unsupported()
        } else {
            do {
                try value.encode(to: JSONTextEncoder(scratch: scratch, slot: slot))
            } catch {
                scratch.failed = true
                throw error
            }
            guard !scratch.failed, scratch.entries[slot].valueEnd != JSONScratch.Entry.unset else { throw scratch.unsupported() }
        }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let scratch: JSONScratch
        let container: Int
        var codingPath: [any CodingKey] { scratch.codingPath(to: scratch.containers[container].owner) }

        private func add(_ key: Key) -> Int { scratch.addEntry(to: container, key: key.stringValue) }

        mutating func encodeNil(forKey key: Key) throws { scratch.writeNull(to: add(key)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { scratch.write(value, to: add(key)) }
        mutating func encode(_ value: String, forKey key: Key) throws { scratch.write(value, to: add(key)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try scratch.write(value, to: add(key)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try scratch.write(value, to: add(key)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { scratch.write(integer: Int64(value), to: add(key)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { scratch.write(integer: Int64(value), to: add(key)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { scratch.write(integer: Int64(value), to: add(key)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { scratch.write(integer: Int64(value), to: add(key)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { scratch.write(integer: value, to: add(key)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { scratch.write(unsigned: UInt64(value), to: add(key)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { scratch.write(unsigned: UInt64(value), to: add(key)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { scratch.write(unsigned: UInt64(value), to: add(key)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { scratch.write(unsigned: UInt64(value), to: add(key)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { scratch.write(unsigned: value, to: add(key)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONTextEncoder.box(value, scratch: scratch, slot: add(key))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let nested = scratch.nestedContainer(in: container, key: key.stringValue, object: true)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(scratch: scratch, container: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            UnkeyedContainer(scratch: scratch, container: scratch.nestedContainer(in: container, key: key.stringValue, object: false))
        }

        mutating func superEncoder() -> any Encoder {
            scratch.failed = true
            return JSONTextEncoder(scratch: scratch, slot: scratch.addDetachedEntry())
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            superEncoder()
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let scratch: JSONScratch
        let container: Int
        var codingPath: [any CodingKey] { scratch.codingPath(to: scratch.containers[container].owner) }
        var count: Int { scratch.containers[container].count }

        private func add() -> Int { scratch.addElement(to: container) }

        mutating func encodeNil() throws { scratch.writeNull(to: add()) }
        mutating func encode(_ value: Bool) throws { scratch.write(value, to: add()) }
        mutating func encode(_ value: String) throws { scratch.write(value, to: add()) }
        mutating func encode(_ value: Double) throws { try scratch.write(value, to: add()) }
        mutating func encode(_ value: Float) throws { try scratch.write(value, to: add()) }
        mutating func encode(_ value: Int) throws { scratch.write(integer: Int64(value), to: add()) }
        mutating func encode(_ value: Int8) throws { scratch.write(integer: Int64(value), to: add()) }
        mutating func encode(_ value: Int16) throws { scratch.write(integer: Int64(value), to: add()) }
        mutating func encode(_ value: Int32) throws { scratch.write(integer: Int64(value), to: add()) }
        mutating func encode(_ value: Int64) throws { scratch.write(integer: value, to: add()) }
        mutating func encode(_ value: UInt) throws { scratch.write(unsigned: UInt64(value), to: add()) }
        mutating func encode(_ value: UInt8) throws { scratch.write(unsigned: UInt64(value), to: add()) }
        mutating func encode(_ value: UInt16) throws { scratch.write(unsigned: UInt64(value), to: add()) }
        mutating func encode(_ value: UInt32) throws { scratch.write(unsigned: UInt64(value), to: add()) }
        mutating func encode(_ value: UInt64) throws { scratch.write(unsigned: value, to: add()) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTextEncoder.box(value, scratch: scratch, slot: add())
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(KeyedContainer<NestedKey>(scratch: scratch, container: scratch.container(at: add(), object: true)))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedContainer(scratch: scratch, container: scratch.container(at: add(), object: false))
        }

        mutating func superEncoder() -> any Encoder {
            scratch.failed = true
            return JSONTextEncoder(scratch: scratch, slot: scratch.addDetachedEntry())
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let scratch: JSONScratch
        let slot: Int
        var codingPath: [any CodingKey] { scratch.codingPath(to: slot) }

        mutating func encodeNil() throws { try scratch.requireUnset(slot); scratch.writeNull(to: slot) }
        mutating func encode(_ value: Bool) throws { try scratch.requireUnset(slot); scratch.write(value, to: slot) }
        mutating func encode(_ value: String) throws { try scratch.requireUnset(slot); scratch.write(value, to: slot) }
        mutating func encode(_ value: Double) throws { try scratch.requireUnset(slot); try scratch.write(value, to: slot) }
        mutating func encode(_ value: Float) throws { try scratch.requireUnset(slot); try scratch.write(value, to: slot) }
        mutating func encode(_ value: Int) throws { try scratch.requireUnset(slot); scratch.write(integer: Int64(value), to: slot) }
        mutating func encode(_ value: Int8) throws { try scratch.requireUnset(slot); scratch.write(integer: Int64(value), to: slot) }
        mutating func encode(_ value: Int16) throws { try scratch.requireUnset(slot); scratch.write(integer: Int64(value), to: slot) }
        mutating func encode(_ value: Int32) throws { try scratch.requireUnset(slot); scratch.write(integer: Int64(value), to: slot) }
        mutating func encode(_ value: Int64) throws { try scratch.requireUnset(slot); scratch.write(integer: value, to: slot) }
        mutating func encode(_ value: UInt) throws { try scratch.requireUnset(slot); scratch.write(unsigned: UInt64(value), to: slot) }
        mutating func encode(_ value: UInt8) throws { try scratch.requireUnset(slot); scratch.write(unsigned: UInt64(value), to: slot) }
        mutating func encode(_ value: UInt16) throws { try scratch.requireUnset(slot); scratch.write(unsigned: UInt64(value), to: slot) }
        mutating func encode(_ value: UInt32) throws { try scratch.requireUnset(slot); scratch.write(unsigned: UInt64(value), to: slot) }
        mutating func encode(_ value: UInt64) throws { try scratch.requireUnset(slot); scratch.write(unsigned: value, to: slot) }
        mutating func encode<T: Encodable>(_ value: T) throws { try JSONTextEncoder.box(value, scratch: scratch, slot: slot) }
    }
}
