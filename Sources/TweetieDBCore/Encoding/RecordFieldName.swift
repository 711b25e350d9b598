import Foundation

/// The key of a ``RecordField``: its UTF-8 bytes in the decoded buffer, compared against
/// literals and strings without copying.
///
/// `switch` cases match string literals (`case "id":`); `==` compares with a `String`.
///
/// ```swift
/// switch field.name {
/// case "id": id = try field.decode(Int64.self)
/// default: if field.name == dynamicKey { … }
/// }
/// ```
public struct RecordFieldName: CustomStringConvertible {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let start: Int
    @usableFromInline let count: Int

    @usableFromInline
    init(base: UnsafePointer<UInt8>, start: Int, count: Int) {
        self.base = base
        self.start = start
        self.count = count
    }

    /// The key's bytes (valid only inside `init(from:)`).
    ///
    /// ```swift
    /// let bytes = Array(field.name.utf8)
    /// ```
    @inlinable
    public var utf8: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: count)
    }

    /// The key as a `String` (a copy; invalid UTF-8 is repaired with U+FFFD).
    ///
    /// ```swift
    /// print("unknown field", field.name.string)
    /// ```
    public var string: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// The key as a `String`.
    public var description: String { string }

    /// Whether the key's bytes equal `literal`'s UTF-8.
    ///
    /// ```swift
    /// if field.name.matches("id") { … }
    /// ```
    @inlinable @inline(__always)
    public func matches(_ literal: StaticString) -> Bool {
        guard literal.hasPointerRepresentation else {
            return self == literal.description
        }
        guard literal.utf8CodeUnitCount == count else {
            return false
        }
        // A byte loop rather than memcmp: the literal's length is a compile-time constant, so the
        // loop unrolls into a few loads and compares instead of a library call per case.
        let expected = literal.utf8Start
        let actual = base + start
        var offset = 0
        while offset < count {
            if expected[offset] != actual[offset] {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Matches a string literal in a `switch` case.
    ///
    /// ```swift
    /// switch field.name { case "id": … default: break }
    /// ```
    @inlinable @inline(__always)
    public static func ~= (pattern: StaticString, name: RecordFieldName) -> Bool {
        name.matches(pattern)
    }

    /// Whether the key's bytes equal `string`'s UTF-8.
    ///
    /// ```swift
    /// if field.name == key { … }
    /// ```
    public static func == (name: RecordFieldName, string: String) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            utf8.count == name.count && (name.count == 0 || memcmp(utf8.baseAddress!, name.base + name.start, name.count) == 0)
        }
    }
}
