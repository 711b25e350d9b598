/// The error thrown when key bytes cannot be decoded into the requested components.
///
/// It says what was expected and at which byte offset of the key the problem was found.
///
/// ```swift
/// do {
///     var decoder = KeyDecoder([0x80])
///     _ = try decoder.decode(Int64.self)
/// } catch let error as KeyDecodingError {
///     print(error)   // "Key decoding failed at byte offset 1: expected 7 more byte(s) of Int64, ..."
/// }
/// ```
public struct KeyDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset inside the key at which decoding failed.
    public var offset: Int

    /// A human-readable explanation: what was expected and what was found.
    public var message: String

    /// Creates an error for a failure at `offset`.
    ///
    /// ```swift
    /// throw KeyDecodingError(offset: 3, message: "expected a Bool byte (0 or 1), found 0x07")
    /// ```
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The full description, including the offset.
    public var description: String {
        "Key decoding failed at byte offset \(offset): \(message)"
    }
}
