import Foundation

/// Reads Twitter's numeric `id` and, when present, checks that `id_str` agrees with it.
enum TwitterIDCheck {
    static func decodeID<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, id: Key, idString: Key
    ) throws -> Int64 {
        let value = try container.decode(Int64.self, forKey: id)
        if let text = try container.decodeIfPresent(String.self, forKey: idString), Int64(text) != value {
            throw DecodingError.dataCorruptedError(
                forKey: idString, in: container,
                debugDescription: "id \(value) disagrees with id_str \"\(text)\"")
        }
        return value
    }
}
