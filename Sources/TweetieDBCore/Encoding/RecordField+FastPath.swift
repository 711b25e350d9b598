/// Inlinable fast paths for reading a ``RecordField``'s value. The field's extent was
/// validated by ``RecordFieldReader/nextField()``, so these only check the tag; each returns
/// `nil` for anything unusual (another tag, a value that needs converting or may not fit,
/// non-ASCII text), and the caller then takes the fully checked path, which converts or
/// throws exactly like ``RecordDecoder``.
extension RecordField {
    @inlinable
    var base: UnsafePointer<UInt8> { name.base }

    /// An integer stored with either integer tag, when it fits in `T` (a varint of at most 9 bytes).
    @inlinable @inline(__always)
    func fastInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        let tag = base[value]
        var index = value + 1
        guard tag == 0x03 || tag == 0x04, end - index <= 9 else {
            return nil
        }
        var raw: UInt64 = 0
        var shift: UInt64 = 0
        while index < end {
            raw |= UInt64(base[index] & 0x7F) << shift
            shift += 7
            index += 1
        }
        if tag == 0x04 {
            return T(exactly: Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
        }
        return T(exactly: raw)
    }

    /// The 8-byte little-endian payload of a `Double` (tag `0x05`) or `Date` (tag `0x09`).
    @inlinable @inline(__always)
    func fastBits64(tag: UInt8) -> UInt64? {
        guard base[value] == tag else {
            return nil
        }
        return UInt64(littleEndian: UnsafeRawPointer(base + value + 1).loadUnaligned(as: UInt64.self))
    }

    /// A `Bool` stored as tag `0x01` / `0x02`.
    @inlinable @inline(__always)
    func fastBool() -> Bool? {
        switch base[value] {
        case 0x01: return false
        case 0x02: return true
        default: return nil
        }
    }

    /// A string (tag `0x07`) whose bytes are all ASCII, so no UTF-8 validation is needed.
    /// The bytes of a length-prefixed value (string, data, URL, container): everything after the
    /// tag and the length varint, which `nextField()` has already validated.
    @inlinable @inline(__always)
    var payload: UnsafeBufferPointer<UInt8> {
        var index = value + 1
        while base[index] >= 0x80 {
            index += 1
        }
        index += 1
        return UnsafeBufferPointer(start: base + index, count: end - index)
    }

    @inlinable @inline(__always)
    func fastASCIIString() -> String? {
        guard base[value] == 0x07 else {
            return nil
        }
        let bytes = payload
        guard Self.isASCII(bytes) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inlinable @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else {
            return true
        }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        var bits: UInt64 = 0
        while offset + 8 <= bytes.count {
            bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            bits |= UInt64(start[offset])
            offset += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
