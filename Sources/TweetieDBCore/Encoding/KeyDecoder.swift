/// Reads the components of a key written by ``KeyEncoder``, in the same order and with the
/// same directions they were appended with.
///
/// ```swift
/// var decoder = KeyDecoder(key.bytes)
/// let name = try decoder.decode(String.self)
/// let created = try decoder.decode(Date.self, descending: true)
/// let id = try decoder.decode(Int64.self)
/// precondition(decoder.isAtEnd)
/// ```
public struct KeyDecoder: Sendable {
    @usableFromInline let storage: [UInt8]

    /// The offset of the next byte to read.
    ///
    /// ```swift
    /// print(decoder.offset)   // 0 before anything was read
    /// ```
    public private(set) var offset: Int

    /// XOR-ed into every byte read: `0xFF` while decoding a descending component.
    @usableFromInline var mask: UInt8

    /// Creates a decoder over a copy of `bytes`.
    ///
    /// ```swift
    /// var decoder = KeyDecoder([0x80, 0, 0, 0, 0, 0, 0, 42])
    /// ```
    public init(_ bytes: some Collection<UInt8>) {
        storage = Array(bytes)
        offset = 0
        mask = 0
    }

    /// Creates a decoder over a copy of the bytes in `bytes` (for example an LMDB `MDB_val`).
    ///
    /// ```swift
    /// let decoder = KeyDecoder(bytes: UnsafeRawBufferPointer(start: val.mv_data, count: val.mv_size))
    /// ```
    public init(bytes: UnsafeRawBufferPointer) {
        storage = Array(bytes)
        offset = 0
        mask = 0
    }

    /// Whether every byte has been consumed.
    ///
    /// ```swift
    /// guard decoder.isAtEnd else { throw MyError.trailingBytes }
    /// ```
    public var isAtEnd: Bool { offset >= storage.count }

    /// The number of bytes not yet read.
    public var remainingCount: Int { storage.count - offset }

    /// Decodes the next component as `T`; pass `descending: true` if it was appended descending.
    ///
    /// ```swift
    /// let id = try decoder.decode(Int64.self)
    /// let created = try decoder.decode(Date.self, descending: true)
    /// ```
    public mutating func decode<T: KeyComponent>(_ type: T.Type, descending: Bool = false) throws -> T {
        let savedMask = mask
        if descending {
            mask = ~mask
        }
        defer { mask = savedMask }
        return try T.decodeKey(from: &self)
    }

    /// Reads one byte (already un-inverted for descending components).
    /// A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// let byte = try decoder.readByte(for: "Bool")
    /// ```
    public mutating func readByte(for typeName: String = "byte") throws -> UInt8 {
        guard offset < storage.count else {
            throw KeyDecodingError(offset: offset, message: "expected 1 more byte of \(typeName), but the key ends here")
        }
        let byte = storage[offset] ^ mask
        offset += 1
        return byte
    }

    /// Reads a big-endian unsigned integer written by ``KeyEncoder/appendBigEndian(_:)``.
    /// A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// let raw = try decoder.readBigEndian(UInt64.self, for: "Int64")
    /// ```
    public mutating func readBigEndian<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, for typeName: String? = nil) throws -> T {
        let width = T.bitWidth / 8
        guard storage.count - offset >= width else {
            throw KeyDecodingError(
                offset: offset,
                message: "expected \(width) byte(s) of \(typeName ?? "\(T.self)"), but only \(storage.count - offset) remain"
            )
        }
        var value: T = 0
        for index in offset..<(offset + width) {
            value = (value << 8) | T(storage[index] ^ mask)
        }
        offset += width
        return value
    }

    /// Reads `count` raw bytes written by ``KeyEncoder/appendRawBytes(_:)``.
    /// A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// let uuidBytes = try decoder.readRawBytes(count: 16, for: "UUID")
    /// ```
    public mutating func readRawBytes(count: Int, for typeName: String = "raw bytes") throws -> [UInt8] {
        guard count >= 0, storage.count - offset >= count else {
            throw KeyDecodingError(
                offset: offset,
                message: "expected \(count) byte(s) of \(typeName), but only \(storage.count - offset) remain"
            )
        }
        var result = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            result[index] = storage[offset + index] ^ mask
        }
        offset += count
        return result
    }

    /// Reads a run written by ``KeyEncoder/appendTerminatedBytes(_:)``: un-escapes `0x00 0xFF`
    /// and stops after the `0x00 0x01` terminator. A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// let utf8 = try decoder.readTerminatedBytes(for: "String")
    /// ```
    public mutating func readTerminatedBytes(for typeName: String = "terminated bytes") throws -> [UInt8] {
        let start = offset
        var result: [UInt8] = []
        var index = offset
        while index < storage.count {
            let byte = storage[index] ^ mask
            if byte != 0 {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 1 < storage.count else { break }
            let next = storage[index + 1] ^ mask
            switch next {
            case 0xFF:
                result.append(0)
                index += 2
            case 0x01:
                offset = index + 2
                return result
            default:
                throw KeyDecodingError(
                    offset: index + 1,
                    message: "invalid escape 0x00 0x\(encodingHexByte(next)) in \(typeName) (expected 0x00 0xFF for a NUL byte or 0x00 0x01 for the end)"
                )
            }
        }
        throw KeyDecodingError(
            offset: start,
            message: "\(typeName) starting here has no 0x00 0x01 terminator before the key ends"
        )
    }
}

func encodingHexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
