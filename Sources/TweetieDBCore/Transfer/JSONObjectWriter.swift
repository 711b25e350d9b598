// JSONObjectWritable is declared beside the writer it is written against: a conformance is a
// list of that writer's calls, and the rules for both (key order, fallback) are one.
import Foundation

/// A value that writes its own JSON object — the text `RecordJSON.encoder()` makes of it —
/// member by member, without an `Encoder` and its containers.
///
/// `@Record` generates this conformance when the struct's JSON form is its own (no `CodingKeys`
/// or `encode(to:)` of its own) and every stored property is a `String`, `Bool`, `Double`,
/// `Date`, a standard integer or `[String]`, or an optional of one. Write one by hand only for
/// a type whose `encode(to:)` is hand-written too, and then follow the rules below.
///
/// Why: an export turns every record into JSON, and going through `encode(to:)` costs a boxed
/// container, a dynamic call and a key entry per member, and a reordering pass per object, for
/// text a type with a fixed set of members can write straight out in its final order.
///
/// Rules: write exactly the members `encode(to:)` encodes, with the same values, in ascending
/// order of their keys' UTF-8 bytes (the order `.sortedKeys` writes); skip a `nil` the way
/// `encodeIfPresent` does. A key out of order, or a value ``JSONObjectWriter`` cannot write the
/// way `JSONEncoder` would (a date without ISO 8601 text, a non-finite number), makes
/// `RecordJSONWriter` discard the object and encode the value through `encode(to:)` instead:
/// a mistake costs speed, never a different text. A test should still compare the two paths
/// (`JSONObjectWritingTests` does for `Tweet`, `User` and a `@Record` type).
///
/// ```swift
/// extension Note: JSONObjectWritable {
///     func writeJSONObject(to object: inout JSONObjectWriter) {
///         object.write(author, forKey: "author")   // keys in byte order:
///         object.write(id, forKey: "id")           // "author" < "id" < "tags"
///         object.write(tags, forKey: "tags")
///     }
/// }
/// ```
public protocol JSONObjectWritable: Encodable {
    /// Writes this value's members, keys in ascending byte order.
    func writeJSONObject(to object: inout JSONObjectWriter)
}

/// Writes one JSON object's members straight into an output buffer, each value exactly as
/// `RecordJSON.encoder()` writes it (see ``JSONObjectWritable``).
///
/// A value of a type this writer has no text for (anything `Encodable` but the overloads'
/// types) marks the object as failed, so that the record is encoded through `encode(to:)`
/// instead: correct, only slower.
///
/// ```swift
/// var object = JSONObjectWriter()
/// object.write(Int64(7), forKey: "id")
/// object.write(decimalText: Int64(7), forKey: "idStr")
/// object.finish()   // {"id":7,"idStr":"7"}
/// ```
public struct JSONObjectWriter {
    /// The output: what was there before, then this object's text.
    package var bytes: [UInt8]
    /// Whether the text cannot be trusted to be `JSONEncoder`'s (see ``JSONObjectWritable``).
    package private(set) var failed = false
    private var members = 0
    private var lastKey: StaticString?

    /// A writer appending to `bytes`.
    package init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Closes the object (`{}` when no member was written).
    package mutating func finish() {
        if members == 0 { bytes.append(0x7B) }
        bytes.append(0x7D)
    }

    /// Writes `"key":` after a `{` or a `,`, and checks that the keys ascend.
    private mutating func key(_ key: StaticString) {
        if let lastKey, !Self.ascending(lastKey, key) { failed = true }
        lastKey = key
        bytes.append(members == 0 ? 0x7B : 0x2C)
        members += 1
        key.withUTF8Buffer { JSONValueText.writeString(utf8: $0, into: &bytes) }
        bytes.append(0x3A)
    }

    /// Whether `first`'s UTF-8 bytes sort strictly before `second`'s.
    private static func ascending(_ first: StaticString, _ second: StaticString) -> Bool {
        first.withUTF8Buffer { a in
            second.withUTF8Buffer { b in
                let common = min(a.count, b.count)
                if common > 0 {
                    let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    /// A string, escaped as `JSONEncoder` escapes it (slashes left alone).
    ///
    /// ```swift
    /// object.write(note.author, forKey: "author")   // "author":"ann"
    /// ```
    public mutating func write(_ value: String, forKey key: StaticString) {
        self.key(key)
        JSONValueText.writeString(value, into: &bytes)
    }

    /// An integer as its decimal digits.
    ///
    /// ```swift
    /// object.write(note.id, forKey: "id")   // "id":7
    /// ```
    public mutating func write(_ value: Int64, forKey key: StaticString) {
        self.key(key)
        JSONValueText.writeInteger(value, into: &bytes)
    }

    /// An integer as its decimal digits.
    ///
    /// ```swift
    /// object.write(note.likes, forKey: "likes")   // "likes":3
    /// ```
    public mutating func write(_ value: Int, forKey key: StaticString) {
        write(Int64(value), forKey: key)
    }

    /// An integer of any standard width as its decimal digits (`UInt64.max` included).
    ///
    /// ```swift
    /// object.write(UInt8(200), forKey: "level")   // "level":200
    /// ```
    public mutating func write<T: FixedWidthInteger & Encodable>(_ value: T, forKey key: StaticString) {
        self.key(key)
        if let signed = Int64(exactly: value) {
            JSONValueText.writeInteger(signed, into: &bytes)
        } else {
            JSONValueText.writeUnsigned(UInt64(value), into: &bytes)
        }
    }

    /// `true` or `false`.
    ///
    /// ```swift
    /// object.write(note.pinned, forKey: "pinned")   // "pinned":false
    /// ```
    public mutating func write(_ value: Bool, forKey key: StaticString) {
        self.key(key)
        JSONValueText.writeBool(value, into: &bytes)
    }

    /// A finite `Double` as its description (`1.0` as `1`); NaN and the infinities fail.
    ///
    /// ```swift
    /// object.write(2.5, forKey: "score")   // "score":2.5
    /// ```
    public mutating func write(_ value: Double, forKey key: StaticString) {
        self.key(key)
        guard value.isFinite else { failed = true; return }
        JSONValueText.writeFloatingPoint(value.description, into: &bytes)
    }

    /// A date as ISO 8601 text with milliseconds; a date without such a text fails.
    ///
    /// ```swift
    /// object.write(note.updated, forKey: "updated")   // "updated":"2026-11-28T04:30:00.000Z"
    /// ```
    public mutating func write(_ value: Date, forKey key: StaticString) {
        self.key(key)
        guard ISO8601.hasText(value) else { failed = true; return }
        JSONValueText.writeDate(value, into: &bytes)
    }

    /// An array of strings.
    ///
    /// ```swift
    /// object.write(["a", "b"], forKey: "tags")   // "tags":["a","b"]
    /// ```
    public mutating func write(_ value: [String], forKey key: StaticString) {
        self.key(key)
        bytes.append(0x5B)
        for (position, element) in value.enumerated() {
            if position > 0 { bytes.append(0x2C) }
            JSONValueText.writeString(element, into: &bytes)
        }
        bytes.append(0x5D)
    }

    /// An integer as a JSON string of its decimal digits (`"-12"`), what `String(value)` encodes to.
    package mutating func write(decimalText value: Int64, forKey key: StaticString) {
        self.key(key)
        bytes.append(0x22)
        JSONValueText.writeInteger(value, into: &bytes)
        bytes.append(0x22)
    }

    /// A value of a type without an overload of its own: the object fails, and the record is
    /// encoded through its `encode(to:)` (see ``JSONObjectWritable``).
    ///
    /// ```swift
    /// object.write(note.location, forKey: "location")   // any other Codable: falls back
    /// ```
    public mutating func write<T: Encodable>(_ value: T, forKey key: StaticString) {
        self.key(key)
        failed = true
    }

    /// `value` unless it is `nil` (then nothing, as `encodeIfPresent` does).
    ///
    /// ```swift
    /// object.writeIfPresent(note.lang, forKey: "lang")   // nothing when nil
    /// ```
    public mutating func writeIfPresent(_ value: String?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.replyTo, forKey: "replyTo")
    /// ```
    public mutating func writeIfPresent(_ value: Int64?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.rank, forKey: "rank")
    /// ```
    public mutating func writeIfPresent(_ value: Int?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(UInt16?(8), forKey: "width")
    /// ```
    public mutating func writeIfPresent<T: FixedWidthInteger & Encodable>(_ value: T?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.archived, forKey: "archived")
    /// ```
    public mutating func writeIfPresent(_ value: Bool?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.score, forKey: "score")
    /// ```
    public mutating func writeIfPresent(_ value: Double?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.due, forKey: "due")
    /// ```
    public mutating func writeIfPresent(_ value: Date?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`.
    ///
    /// ```swift
    /// object.writeIfPresent(note.labels, forKey: "labels")
    /// ```
    public mutating func writeIfPresent(_ value: [String]?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }

    /// `value` unless it is `nil`; a value of a type without an overload fails the object.
    ///
    /// ```swift
    /// object.writeIfPresent(note.location, forKey: "location")
    /// ```
    public mutating func writeIfPresent<T: Encodable>(_ value: T?, forKey key: StaticString) {
        if let value { write(value, forKey: key) }
    }
}
