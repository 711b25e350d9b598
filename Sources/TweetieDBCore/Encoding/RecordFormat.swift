/// Constants and byte-level helpers shared by ``RecordEncoder`` and ``RecordDecoder``.
/// The format itself is described in the documentation of ``RecordEncoder``.
enum RecordFormat {
    /// The first byte of every record.
    static let version: UInt8 = 0x01

    /// The deepest nesting of containers (keyed or unkeyed) that is encoded or decoded.
    static let maxDepth = 64

    enum Tag {
        static let null: UInt8 = 0x00
        static let boolFalse: UInt8 = 0x01
        static let boolTrue: UInt8 = 0x02
        static let unsigned: UInt8 = 0x03
        static let signed: UInt8 = 0x04
        static let float64: UInt8 = 0x05
        static let float32: UInt8 = 0x06
        static let string: UInt8 = 0x07
        static let data: UInt8 = 0x08
        static let date: UInt8 = 0x09
        static let url: UInt8 = 0x0A
        static let uuid: UInt8 = 0x0B
        static let keyed: UInt8 = 0x0C
        static let unkeyed: UInt8 = 0x0D
    }

    /// A human-readable name for a tag byte, for error messages.
    static func describe(tag: UInt8) -> String {
        switch tag {
        case Tag.null: return "nil (tag 0x00)"
        case Tag.boolFalse: return "false (tag 0x01)"
        case Tag.boolTrue: return "true (tag 0x02)"
        case Tag.unsigned: return "an unsigned integer (tag 0x03)"
        case Tag.signed: return "a signed integer (tag 0x04)"
        case Tag.float64: return "a Double (tag 0x05)"
        case Tag.float32: return "a Float (tag 0x06)"
        case Tag.string: return "a string (tag 0x07)"
        case Tag.data: return "Data (tag 0x08)"
        case Tag.date: return "a Date (tag 0x09)"
        case Tag.url: return "a URL (tag 0x0A)"
        case Tag.uuid: return "a UUID (tag 0x0B)"
        case Tag.keyed: return "a keyed container (tag 0x0C)"
        case Tag.unkeyed: return "an unkeyed container (tag 0x0D)"
        default: return "an unknown tag 0x\(encodingHexByte(tag))"
        }
    }

    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// The number of bytes `writeVarint` uses for `value`.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        var count = 1
        var rest = value >> 7
        while rest != 0 {
            count += 1
            rest >>= 7
        }
        return count
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low groups first).
    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        append(UInt8(truncatingIfNeeded: rest))
    }

    /// Appends `value` little-endian.
    @inline(__always)
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }

    /// Appends a varint length followed by the UTF-8 bytes of `string`.
    @inline(__always)
    mutating func appendLengthPrefixedUTF8(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            append(contentsOf: utf8)
        }
    }
}
