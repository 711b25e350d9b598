import Foundation

/// Key bytes compared the way LMDB compares them: `memcmp` over the common length, then the
/// shorter key first.
///
/// Use it wherever the store or an observer needs to sort, dedupe or range-check raw keys.
///
/// ```swift
/// let a = EncodedKey(Int64(-1))
/// let b = EncodedKey(Int64(2))
/// assert(a < b)
/// var encoder = KeyEncoder()
/// encoder.append("user")
/// assert(EncodedKey(composite: { $0.append("user"); $0.append(Int64(1)) }).hasPrefix(encoder.encodedKey))
/// ```
public struct EncodedKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw key bytes.
    ///
    /// ```swift
    /// print(EncodedKey(UInt8(7)).bytes)   // [7]
    /// ```
    public var bytes: [UInt8]

    /// Wraps raw key bytes.
    ///
    /// ```swift
    /// let key = EncodedKey(bytes: [0x80, 0x00])
    /// ```
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Copies raw key bytes, for example out of an LMDB `MDB_val`.
    ///
    /// ```swift
    /// let key = EncodedKey(copying: UnsafeRawBufferPointer(start: val.mv_data, count: val.mv_size))
    /// ```
    public init(copying buffer: UnsafeRawBufferPointer) {
        self.bytes = Array(buffer)
    }

    /// Copies raw key bytes, every byte inverted when `inverted` (a descending sort's key).
    @inlinable
    init(copying buffer: UnsafeRawBufferPointer, inverted: Bool) {
        guard inverted else {
            self.bytes = Array(buffer)
            return
        }
        self.bytes = [UInt8](unsafeUninitializedCapacity: buffer.count) { target, initialized in
            for index in 0..<buffer.count { target[index] = ~buffer[index] }
            initialized = buffer.count
        }
    }

    /// Encodes a single component.
    ///
    /// ```swift
    /// let key = EncodedKey(Date(), descending: true)
    /// ```
    public init<T: KeyComponent>(_ value: T, descending: Bool = false) {
        var encoder = KeyEncoder()
        encoder.append(value, descending: descending)
        self.bytes = encoder.bytes
    }

    /// Builds a composite key with a ``KeyEncoder``.
    ///
    /// ```swift
    /// let key = EncodedKey { $0.append("alice"); $0.append(Int64(7)) }
    /// ```
    public init(composite build: (inout KeyEncoder) -> Void) {
        var encoder = KeyEncoder()
        build(&encoder)
        self.bytes = encoder.bytes
    }

    /// Whether `lhs` sorts before `rhs` under LMDB's default `memcmp` key order.
    ///
    /// ```swift
    /// assert(EncodedKey(bytes: [1]) < EncodedKey(bytes: [1, 0]))
    /// ```
    public static func < (lhs: EncodedKey, rhs: EncodedKey) -> Bool {
        compare(lhs.bytes, rhs.bytes) < 0
    }

    /// Three-way `memcmp` comparison of two byte arrays: negative, zero or positive.
    ///
    /// ```swift
    /// assert(EncodedKey.compare([1, 2], [1, 3]) < 0)
    /// ```
    public static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                compare(left, right)
            }
        }
    }

    /// Three-way `memcmp` comparison of two raw buffers (for example two `MDB_val`s):
    /// negative, zero or positive.
    ///
    /// ```swift
    /// let order = EncodedKey.compare(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
    /// ```
    public static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
            let result = memcmp(left, right, common)
            if result != 0 {
                return result < 0 ? -1 : 1
            }
        }
        if lhs.count == rhs.count {
            return 0
        }
        return lhs.count < rhs.count ? -1 : 1
    }

    /// Whether this key starts with all bytes of `prefix` (for range scans over composite keys).
    ///
    /// ```swift
    /// let inTimeline = key.hasPrefix(EncodedKey("timeline"))
    /// ```
    public func hasPrefix(_ prefix: EncodedKey) -> Bool {
        bytes.count >= prefix.bytes.count && bytes[0..<prefix.bytes.count].elementsEqual(prefix.bytes)
    }

    /// The bytes in hexadecimal, for logs and test failures.
    ///
    /// ```swift
    /// print(EncodedKey(UInt8(255)))   // "ff"
    /// ```
    public var description: String {
        bytes.map { encodingHexByte($0).lowercased() }.joined(separator: " ")
    }
}
