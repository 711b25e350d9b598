/// A value that can be part of an LMDB key, encoded so that `memcmp` order equals natural order.
///
/// LMDB compares keys with `memcmp`. A conforming type writes itself with ``KeyEncoder``
/// primitives such that for any two values `a < b` (in the type's natural order)
/// the encoding of `a` sorts before the encoding of `b`, and such that the encoding is
/// *prefix-free*: no value's encoding is a proper prefix of another's. Prefix-freedom is what
/// makes composite keys (several components appended one after the other) compare component
/// by component.
///
/// ```swift
/// var encoder = KeyEncoder()
/// encoder.append("alice")                      // ascending String
/// encoder.append(Date(), descending: true)      // newest first
/// encoder.append(Int64(42))
/// var decoder = KeyDecoder(encoder.bytes)
/// let name = try decoder.decode(String.self)
/// let date = try decoder.decode(Date.self, descending: true)
/// let id = try decoder.decode(Int64.self)
/// ```
public protocol KeyComponent: Hashable, Sendable {
    /// Appends the order-preserving encoding of `self` to `encoder`.
    ///
    /// ```swift
    /// var encoder = KeyEncoder()
    /// Int64(7).encodeKey(into: &encoder)   // same as encoder.append(Int64(7))
    /// ```
    func encodeKey(into encoder: inout KeyEncoder)

    /// Reads a value previously written by ``encodeKey(into:)``.
    ///
    /// Throws ``KeyDecodingError`` when the bytes are truncated or malformed.
    ///
    /// ```swift
    /// var decoder = KeyDecoder(bytes)
    /// let id = try Int64.decodeKey(from: &decoder)
    /// ```
    static func decodeKey(from decoder: inout KeyDecoder) throws -> Self
}
