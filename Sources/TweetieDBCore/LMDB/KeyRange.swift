#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A range of keys in memcmp order: everything, a prefix, or lower/upper bounds.
///
/// ```swift
/// try tx.forEach(in: index, range: .prefix(authorKey)) { key, _ in …; return true }
/// try tx.forEach(in: tweets, range: .between(lower, upper)) { … }
/// ```
@usableFromInline struct KeyRange: Sendable, Hashable {
    /// The smallest key included, or `nil` for no lower bound.
    ///
    /// ```swift
    /// let range = KeyRange(lowerBound: [0x01], upperBoundExclusive: nil)
    /// ```
    @usableFromInline var lowerBound: [UInt8]?
    /// The first key *not* included, or `nil` for no upper bound.
    ///
    /// ```swift
    /// let range = KeyRange(lowerBound: nil, upperBoundExclusive: [0x02])
    /// ```
    @usableFromInline var upperBoundExclusive: [UInt8]?

    /// Creates a range from explicit bounds.
    ///
    /// ```swift
    /// let range = KeyRange(lowerBound: [1], upperBoundExclusive: [2])
    /// ```
    @usableFromInline init(lowerBound: [UInt8]?, upperBoundExclusive: [UInt8]?) {
        self.lowerBound = lowerBound
        self.upperBoundExclusive = upperBoundExclusive
    }

    /// Every key.
    ///
    /// ```swift
    /// try tx.forEach(in: db, range: .all) { _, _ in true }
    /// ```
    @usableFromInline static let all = KeyRange(lowerBound: nil, upperBoundExclusive: nil)

    /// Keys that start with `prefix`.
    ///
    /// ```swift
    /// let range = KeyRange.prefix([0x01, 0x02])
    /// ```
    @usableFromInline static func prefix(_ prefix: [UInt8]) -> KeyRange {
        KeyRange(lowerBound: prefix, upperBoundExclusive: successor(ofPrefix: prefix))
    }

    /// Keys `k` with `lower <= k < upper` (memcmp).
    ///
    /// ```swift
    /// let range = KeyRange.between([0x01], [0x05])
    /// ```
    @usableFromInline static func between(_ lower: [UInt8], _ upper: [UInt8]) -> KeyRange {
        KeyRange(lowerBound: lower, upperBoundExclusive: upper)
    }

    /// Keys `k` with `lower <= k <= upper` (memcmp).
    ///
    /// ```swift
    /// let range = KeyRange.closed([0x01], [0x05])
    /// ```
    @usableFromInline static func closed(_ lower: [UInt8], _ upper: [UInt8]) -> KeyRange {
        KeyRange(lowerBound: lower, upperBoundExclusive: upper + [0x00])
    }

    /// The smallest key greater than every key starting with `prefix`, or `nil` if none exists
    /// (the prefix is empty or all `0xFF`).
    static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var bytes = prefix
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return nil
    }

    func contains(_ key: UnsafeRawBufferPointer) -> Bool {
        if let lowerBound, compareBytes(key, lowerBound) < 0 { return false }
        if let upperBoundExclusive, compareBytes(key, upperBoundExclusive) >= 0 { return false }
        return true
    }

    func isAbove(_ key: UnsafeRawBufferPointer) -> Bool {
        guard let upperBoundExclusive else { return false }
        return compareBytes(key, upperBoundExclusive) >= 0
    }
}

/// memcmp order of two byte strings (shorter first when one is a prefix of the other).
@usableFromInline
func compareBytes(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Int {
    b.withUnsafeBytes { b in compareBytes(a, b) }
}

@usableFromInline
func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
        let c = memcmp(pa, pb, n)
        if c != 0 { return Int(c) }
    }
    return a.count - b.count
}
