import Foundation

/// Writes a ``JSONNode`` as JSON text exactly as `RecordJSON.encoder()` does: keys sorted by
/// their UTF-8 bytes (equal `String`s are one key), no spaces, slashes not escaped, `"`, `\` and control characters escaped
/// (`\b \t \n \f \r`, the others as `\u00xx`), everything else as UTF-8, floating-point numbers
/// as their Swift `description` without a trailing `.0`.
///
/// Rules: the text must equal Foundation's byte for byte, because exports are compared across
/// runs and tools (`RecordJSONWriterTests` compares the two on generated records and on the
/// edge cases: control characters, every key order, extreme numbers). Keep it that way when
/// changing either side.
///
/// ```swift
/// var writer = JSONTextWriter()
/// writer.write(.string("a/b"), into: &bytes)   // "a/b"
/// ```
struct JSONTextWriter {
    /// The key order of the last object written at the top level, and its sorted permutation:
    /// the records of one collection almost always encode the same keys in the same order, so
    /// the sort is done once per export instead of once per record.
    private var lastKeys: [String] = []
    private var lastOrder: [(key: Int, value: Int)] = []

    mutating func write(_ node: JSONNode, into out: inout [UInt8]) {
        switch node {
        case .object(let object):
            // Compared by bytes: keys equal as Strings may sort differently (`é`, `e` + U+0301).
            if object.keys.elementsEqual(lastKeys, by: Self.sameBytes) {
                Self.writeObject(object, order: lastOrder, into: &out)
            } else {
                let order = Self.sortedOrder(of: object.keys)
                Self.writeObject(object, order: order, into: &out)
                lastKeys = object.keys
                lastOrder = order
            }
        default:
            Self.write(node, into: &out)
        }
    }

    private static func write(_ node: JSONNode, into out: inout [UInt8]) {
        switch node {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let value): value ? out.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) : out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .int(let value): writeInteger(value, into: &out)
        case .uint(let value): writeUnsigned(value, into: &out)
        case .double(let value): writeFloatingPoint(value.description, into: &out)
        case .float(let value): writeFloatingPoint(value.description, into: &out)
        case .string(let value): writeString(value, into: &out)
        case .object(let object): writeObject(object, order: sortedOrder(of: object.keys), into: &out)
        case .array(let array):
            out.append(0x5B)
            for (position, item) in array.items.enumerated() {
                if position > 0 { out.append(0x2C) }
                write(item, into: &out)
            }
            out.append(0x5D)
        }
    }

    /// Whether two strings have the same UTF-8 bytes (not merely equal as `String`s).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    /// Which key and which value to write, in order. Foundation keeps an object's keys in a
    /// `Dictionary`: keys that are equal as `String`s (canonically equivalent, such as `é` and
    /// `e` + U+0301) are one key, written as first encoded, with the value encoded last; keys
    /// are sorted by their UTF-8 bytes.
    private static func sortedOrder(of keys: [String]) -> [(key: Int, value: Int)] {
        var kept: [(key: Int, value: Int)] = []
        kept.reserveCapacity(keys.count)
        for index in keys.indices {
            if let earlier = kept.firstIndex(where: { keys[$0.key] == keys[index] }) {
                kept[earlier].value = index
            } else {
                kept.append((index, index))
            }
        }
        kept.sort { keys[$0.key].utf8.lexicographicallyPrecedes(keys[$1.key].utf8) }
        return kept
    }

    private static func writeObject(_ object: JSONObjectNode, order: [(key: Int, value: Int)], into out: inout [UInt8]) {
        out.append(0x7B)
        for (position, entry) in order.enumerated() {
            if position > 0 { out.append(0x2C) }
            writeString(object.keys[entry.key], into: &out)
            out.append(0x3A)
            write(object.values[entry.value], into: &out)
        }
        out.append(0x7D)
    }

    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 {
            out.append(0x2D)
            writeUnsigned(value.magnitude, into: &out)
        } else {
            writeUnsigned(UInt64(value), into: &out)
        }
    }

    static func writeUnsigned(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(0x30 &+ UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = value
            var count = 0
            while remaining > 0 {
                digits[19 - count] = 0x30 &+ UInt8(remaining % 10)
                remaining /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// A finite `Float` or `Double`'s description, without a trailing `.0` (`1.0` → `1`).
    private static func writeFloatingPoint(_ description: String, into out: inout [UInt8]) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(0x22)
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x08: out.append(contentsOf: [0x5C, 0x62])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0C: out.append(contentsOf: [0x5C, 0x66])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(0x22)
    }
}
