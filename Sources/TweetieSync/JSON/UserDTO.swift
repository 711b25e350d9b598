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
