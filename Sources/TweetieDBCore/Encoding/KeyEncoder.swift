import Foundation

/// Builds an LMDB key from ``KeyComponent`` values so that `memcmp` order of the bytes equals
/// the lexicographic order of the components, each in its chosen direction.
///
/// Components are appended one after the other. A component appended with
/// `descending: true` has every one of its bytes inverted, which reverses its order while
/// keeping the whole key prefix-free (every standard encoding is fixed-width or
/// self-terminating, so inversion never lets a component "leak" into the next one).
///
/// ```swift
/// var encoder = KeyEncoder()
/// encoder.append("timeline")
/// encoder.append(tweet.created, descending: true)   // newest first
/// encoder.append(tweet.id)
/// let key = encoder.encodedKey                        // EncodedKey, memcmp-comparable
/// ```
public struct KeyEncoder: Sendable {
    /// The bytes written so far.
    ///
    /// ```swift
    /// var encoder = KeyEncoder()
    /// encoder.append(UInt8(5))
    /// print(encoder.bytes)   // [5]
    /// ```
    public private(set) var bytes: [UInt8]

    /// Creates an empty encoder.
    ///
    /// ```swift
    /// var encoder = KeyEncoder()
    /// ```
    public init() {
        bytes = []
        bytes.reserveCapacity(32)
    }

    /// The bytes written so far, wrapped as a memcmp-comparable ``EncodedKey``.
    ///
    /// ```swift
    /// let key = encoder.encodedKey
    /// ```
    public var encodedKey: EncodedKey { EncodedKey(bytes: bytes) }

    /// Appends `value` in ascending order.
    ///
    /// ```swift
    /// encoder.append(Int64(-3))
    /// ```
    public mutating func append<T: KeyComponent>(_ value: T) {
        value.encodeKey(into: &self)
    }

    /// Appends `value`, in descending order when `descending` is `true` (every byte of the
    /// component is inverted).
    ///
    /// ```swift
    /// encoder.append(Date(), descending: true)
    /// ```
    public mutating func append<T: KeyComponent>(_ value: T, descending: Bool) {
        let start = bytes.count
        value.encodeKey(into: &self)
        if descending {
            bytes.withUnsafeMutableBufferPointer { buffer in
                for index in start..<buffer.count {
                    buffer[index] = ~buffer[index]
                }
            }
        }
    }

    /// Appends one raw byte. A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// encoder.appendByte(flag ? 1 : 0)
    /// ```
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Empties the key, keeping its storage (the store reuses one encoder per index).
    @usableFromInline
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends bytes as they are (the store appends the primary key to non-unique index values).
    @usableFromInline
    mutating func appendBytes(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Appends bytes as they are (an index entry a batch's encoder thread built).
    @usableFromInline
    mutating func appendBytes(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends raw bytes unchanged. The caller is responsible for prefix-freedom (use it only
    /// for fixed-width data). A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// encoder.appendRawBytes([0xDE, 0xAD])
    /// ```
    public mutating func appendRawBytes(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends an unsigned integer big-endian (most significant byte first), which makes
    /// `memcmp` order equal numeric order. A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// encoder.appendBigEndian(UInt32(258))   // 00 00 01 02
    /// ```
    public mutating func appendBigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends variable-length bytes in an order-preserving, prefix-free way.
    ///
    /// Every `0x00` byte is written as `0x00 0xFF` and the run ends with the terminator
    /// `0x00 0x01`. Two such runs compare like their raw bytes compare lexicographically
    /// (a shorter prefix sorts first), and the comparison is always decided inside the run,
    /// never by what follows it; that stays true after the bytes are inverted for a
    /// descending component. A primitive for ``KeyComponent`` conformances.
    ///
    /// ```swift
    /// encoder.appendTerminatedBytes(Array("ab".utf8))   // 61 62 00 01
    /// ```
    public mutating func appendTerminatedBytes(_ raw: some Sequence<UInt8>) {
        // Contiguous bytes without a 0x00 (every ordinary string) go in with one copy.
        let copied: Bool? = raw.withContiguousStorageIfAvailable { buffer in
            guard let start = buffer.baseAddress, memchr(start, 0, buffer.count) != nil else {
                bytes.append(contentsOf: buffer)
                return true
            }
            return false
        }
        if copied != true {
            for byte in raw {
                bytes.append(byte)
                if byte == 0 {
                    bytes.append(0xFF)
                }
            }
        }
        bytes.append(0x00)
        bytes.append(0x01)
    }
}
