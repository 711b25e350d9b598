import Foundation

// Order-preserving key encodings of the standard types.
//
// - Unsigned integers: big-endian, fixed width.
// - Signed integers: the sign bit flipped, then big-endian (so negatives sort first).
// - `Int` is always written as 8 bytes (like `Int64`), whatever the platform.
// - `Bool`: one byte, 0 or 1.
// - `String`: its UTF-8 bytes, `0x00` escaped as `0x00 0xFF`, terminated by `0x00 0x01`.
//   Order is UTF-8 byte order (= Unicode scalar order), *not* Swift's `String <`, and no
//   normalization is applied: "é" and "e\u{301}" are different keys.
// - `UUID`: its 16 bytes in `uuid` order.
// - `Double`: IEEE-754 bits; for non-negative values (sign bit clear) the sign bit is set,
//   for negative values all bits are inverted. Round trips are bit-exact. The order is
//   `-NaN < -∞ < … < -0.0 < +0.0 < … < +∞ < +NaN`: NaNs with the sign bit set sort first,
//   the others last, and `-0.0` sorts just before `+0.0` (they are distinct keys).
// - `Date`: its `timeIntervalSinceReferenceDate` encoded as a `Double` (bit-exact round trip).

extension UInt8: KeyComponent {
    /// Writes the byte as is.
    ///
    /// ```swift
    /// encoder.append(UInt8(200))   // c8
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendByte(self)
    }

    /// Reads one byte.
    ///
    /// ```swift
    /// let flags = try decoder.decode(UInt8.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> UInt8 {
        try decoder.readByte(for: "UInt8")
    }
}

extension UInt32: KeyComponent {
    /// Writes 4 bytes big-endian.
    ///
    /// ```swift
    /// encoder.append(UInt32(1))   // 00 00 00 01
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendBigEndian(self)
    }

    /// Reads 4 bytes big-endian.
    ///
    /// ```swift
    /// let value = try decoder.decode(UInt32.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> UInt32 {
        try decoder.readBigEndian(UInt32.self)
    }
}

extension UInt64: KeyComponent {
    /// Writes 8 bytes big-endian.
    ///
    /// ```swift
    /// encoder.append(UInt64.max)   // ff ff ff ff ff ff ff ff
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendBigEndian(self)
    }

    /// Reads 8 bytes big-endian.
    ///
    /// ```swift
    /// let value = try decoder.decode(UInt64.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> UInt64 {
        try decoder.readBigEndian(UInt64.self)
    }
}

extension Int32: KeyComponent {
    /// Writes 4 bytes big-endian with the sign bit flipped.
    ///
    /// ```swift
    /// encoder.append(Int32(-1))   // 7f ff ff ff
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendBigEndian(UInt32(bitPattern: self) ^ 0x8000_0000)
    }

    /// Reads 4 bytes big-endian and flips the sign bit back.
    ///
    /// ```swift
    /// let value = try decoder.decode(Int32.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Int32 {
        Int32(bitPattern: try decoder.readBigEndian(UInt32.self, for: "Int32") ^ 0x8000_0000)
    }
}

extension Int64: KeyComponent {
    /// Writes 8 bytes big-endian with the sign bit flipped.
    ///
    /// ```swift
    /// encoder.append(Int64(0))   // 80 00 00 00 00 00 00 00
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendBigEndian(UInt64(bitPattern: self) ^ 0x8000_0000_0000_0000)
    }

    /// Reads 8 bytes big-endian and flips the sign bit back.
    ///
    /// ```swift
    /// let id = try decoder.decode(Int64.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Int64 {
        Int64(bitPattern: try decoder.readBigEndian(UInt64.self, for: "Int64") ^ 0x8000_0000_0000_0000)
    }
}

extension Int: KeyComponent {
    /// Writes the value as an `Int64` (8 bytes on every platform).
    ///
    /// ```swift
    /// encoder.append(42)
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        Int64(self).encodeKey(into: &encoder)
    }

    /// Reads an `Int64` and checks that it fits in `Int`.
    ///
    /// ```swift
    /// let count = try decoder.decode(Int.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Int {
        let start = decoder.offset
        let wide = Int64(bitPattern: try decoder.readBigEndian(UInt64.self, for: "Int") ^ 0x8000_0000_0000_0000)
        guard let value = Int(exactly: wide) else {
            throw KeyDecodingError(offset: start, message: "value \(wide) does not fit in Int on this platform")
        }
        return value
    }
}

extension Bool: KeyComponent {
    /// Writes one byte: 0 for `false`, 1 for `true`.
    ///
    /// ```swift
    /// encoder.append(true)   // 01
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendByte(self ? 1 : 0)
    }

    /// Reads one byte, which must be 0 or 1.
    ///
    /// ```swift
    /// let isRetweet = try decoder.decode(Bool.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Bool {
        let start = decoder.offset
        switch try decoder.readByte(for: "Bool") {
        case 0: return false
        case 1: return true
        case let other:
            throw KeyDecodingError(offset: start, message: "expected a Bool byte (0x00 or 0x01), found 0x\(encodingHexByte(other))")
        }
    }
}

extension String: KeyComponent {
    /// Writes the UTF-8 bytes with `0x00` escaped as `0x00 0xFF` and the terminator `0x00 0x01`.
    ///
    /// ```swift
    /// encoder.append("ab")   // 61 62 00 01
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendTerminatedBytes(utf8)
    }

    /// Reads a terminated run and validates it as UTF-8.
    ///
    /// ```swift
    /// let name = try decoder.decode(String.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> String {
        let start = decoder.offset
        let utf8 = try decoder.readTerminatedBytes(for: "String")
        guard let value = String(validating: utf8, as: UTF8.self) else {
            throw KeyDecodingError(offset: start, message: "String bytes are not valid UTF-8")
        }
        return value
    }
}

extension UUID: KeyComponent {
    /// Writes the 16 bytes of `uuid` in order.
    ///
    /// ```swift
    /// encoder.append(UUID())
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        withUnsafeBytes(of: uuid) { encoder.appendRawBytes($0) }
    }

    /// Reads 16 bytes.
    ///
    /// ```swift
    /// let id = try decoder.decode(UUID.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> UUID {
        let raw = try decoder.readRawBytes(count: 16, for: "UUID")
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: raw) }
        return UUID(uuid: value)
    }
}

extension Double: KeyComponent {
    /// Writes the order-preserving transform of the IEEE-754 bits, 8 bytes big-endian.
    ///
    /// ```swift
    /// encoder.append(-1.5)
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        encoder.appendBigEndian(Double.keyOrderedBits(of: self))
    }

    /// Reads 8 bytes and reverses the transform (bit-exact).
    ///
    /// ```swift
    /// let score = try decoder.decode(Double.self)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Double {
        Double.fromKeyOrderedBits(try decoder.readBigEndian(UInt64.self, for: "Double"))
    }

    static func keyOrderedBits(of value: Double) -> UInt64 {
        let bits = value.bitPattern
        return bits & 0x8000_0000_0000_0000 != 0 ? ~bits : bits | 0x8000_0000_0000_0000
    }

    static func fromKeyOrderedBits(_ ordered: UInt64) -> Double {
        let bits = ordered & 0x8000_0000_0000_0000 != 0 ? ordered & 0x7FFF_FFFF_FFFF_FFFF : ~ordered
        return Double(bitPattern: bits)
    }
}

extension Date: KeyComponent {
    /// Writes `timeIntervalSinceReferenceDate` as an ordered `Double`.
    ///
    /// ```swift
    /// encoder.append(tweet.created, descending: true)
    /// ```
    public func encodeKey(into encoder: inout KeyEncoder) {
        timeIntervalSinceReferenceDate.encodeKey(into: &encoder)
    }

    /// Reads an ordered `Double` as `timeIntervalSinceReferenceDate` (bit-exact).
    ///
    /// ```swift
    /// let created = try decoder.decode(Date.self, descending: true)
    /// ```
    public static func decodeKey(from decoder: inout KeyDecoder) throws -> Date {
        Date(timeIntervalSinceReferenceDate: Double.fromKeyOrderedBits(try decoder.readBigEndian(UInt64.self, for: "Date")))
    }
}
