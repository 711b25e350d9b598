import Foundation

/// The fields of a Twitter v1.1 user object that ``User`` keeps.
struct UserDTO: Decodable {
    let user: User

    private enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case name
        case screenName = "screen_name"
        case description
        case url
        case imageURL = "profile_image_url_https"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        user = User(
            id: try TwitterIDCheck.decodeID(from: container, id: .id, idString: .idString),
            name: try container.decode(String.self, forKey: .name),
            username: try container.decode(String.self, forKey: .screenName),
            about: try container.decodeIfPresent(String.self, forKey: .description) ?? "",
            url: try container.decodeIfPresent(String.self, forKey: .url) ?? "",
            imageURL: try container.decode(String.self, forKey: .imageURL)
        )
    }
}

/// The `{"users": [...]}` envelope of `lists/members.json`.
struct UsersEnvelopeDTO: Decodable {
    let users: [DecodingAttempt<UserDTO>]
}

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
