import Foundation

/// The JSON form of a 64-bit id: a number with a string twin, the way Twitter's API pairs `id`
/// with `id_str`.
///
/// Rules: every id field of a record's JSON form (`id`, `authorId`, `inReplyToId`) is written
/// twice — as a JSON number under its name and as a decimal string under its name plus `Str`
/// (`idStr`, `authorIdStr`, `inReplyToIdStr`) — because JSON readers that hold numbers as doubles
/// (JavaScript, jq 1.6) silently change ids above 2^53. Reading accepts the number, the string
/// twin, either one as a string, or both; when both are there they must agree, so a rounded id is
/// refused instead of stored under the wrong key. The storage form (``RecordCodable``) carries
/// the number only.
///
/// ```swift
/// let json = try RecordJSON.encoder().encode(tweet)  // {…,"id":1071510262772662339,"idStr":"1071510262772662339",…}
/// ```
enum IDStringTwin {
    /// A coding key made from any field name.
    struct Key: CodingKey, ExpressibleByStringLiteral {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(stringLiteral value: String) { stringValue = value }
    }

    /// Reads the id `name` from its number and its string twin; nil when neither is there. The
    /// caller keeps one container for all its ids.
    static func decodeIfPresent(_ name: String, in container: KeyedDecodingContainer<Key>) throws -> Int64? {
        let key = Key(stringValue: name), twinKey = Key(stringValue: name + "Str")
        var number: Int64?
        if container.contains(key), try !container.decodeNil(forKey: key) {
            do {
                number = try container.decode(Int64.self, forKey: key)
            } catch {
                // A string is the other accepted form; any other value keeps the number's error,
                // which says what is wrong with it (outside the 64-bit range, not whole, …).
                guard let text = try? container.decode(String.self, forKey: key) else { throw error }
                number = try parse(text, key: key, in: container)
            }
        }
        guard container.contains(twinKey), try !container.decodeNil(forKey: twinKey) else { return number }
        let twin = try parse(try container.decode(String.self, forKey: twinKey), key: twinKey, in: container)
        if let number, number != twin {
            throw DecodingError.dataCorruptedError(
                forKey: twinKey, in: container,
                debugDescription: "\(name) \(number) and \(name)Str \"\(twin)\" disagree (a JSON reader that holds numbers as doubles, such as jq 1.6 or JavaScript, rounds ids above 2^53; keep \(name)Str and drop \(name), or fix it)")
        }
        return twin
    }

    /// Reads the required id `name`.
    static func decode(_ name: String, from decoder: any Decoder) throws -> Int64 {
        try decode(name, in: try decoder.container(keyedBy: Key.self))
    }

    /// ``decode(_:from:)`` from a container the caller keeps for all its ids (see
    /// ``decodeIfPresent(_:in:)``).
    static func decode(_ name: String, in container: KeyedDecodingContainer<Key>) throws -> Int64 {
        guard let value = try decodeIfPresent(name, in: container) else {
            throw DecodingError.keyNotFound(Key(stringValue: name), .init(codingPath: container.codingPath, debugDescription: "no \(name) or \(name)Str"))
        }
        return value
    }

    /// Writes the id `name` and its string twin (nothing when `value` is nil).
    static func encode(_ value: Int64?, _ name: String, to container: inout KeyedEncodingContainer<Key>) throws {
        guard let value else { return }
        try container.encode(value, forKey: Key(stringValue: name))
        try container.encode(String(value), forKey: Key(stringValue: name + "Str"))
    }

    private static func parse(_ text: String, key: Key, in container: KeyedDecodingContainer<Key>) throws -> Int64 {
        guard let value = Int64(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(text)' is not a 64-bit integer id")
        }
        return value
    }
}
