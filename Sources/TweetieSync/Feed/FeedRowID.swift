/// How feed rows carry their ids in JSON: as decimal strings (since feed format version 2).
///
/// Tweet ids exceed 2^53, above which JavaScript's `JSON.parse` rounds numbers; a string keeps
/// them exact, as Twitter's own `id_str` does.
///
/// ```json
/// {"id":"1071325319259414528","author":"Marin Todorov",…}
/// ```
enum FeedRowID {
    /// Writes `id` as its decimal string.
    static func encode<Key: CodingKey>(_ id: Int64, to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(String(id), forKey: key)
    }

    /// Reads an id written by ``encode(_:to:forKey:)``: a canonical decimal string (no sign `+`,
    /// no leading zeros, no spaces) of a 64-bit integer; anything else is a decoding error.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Int64 {
        let text = try container.decode(String.self, forKey: key)
        guard let id = Int64(text), String(id) == text else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "row id \"\(text)\" is not the decimal string of a 64-bit integer")
        }
        return id
    }
}
