import Foundation

/// The fields of a Twitter v1.1 status that ``Tweet`` keeps, decoded from Twitter's JSON.
struct TweetDTO: Decodable {
    let tweet: Tweet

    private enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case text
        case fullText = "full_text"
        case createdAt = "created_at"
        case user
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case inReplyToStatusId = "in_reply_to_status_id"
        case retweetedStatus = "retweeted_status"
        case lang
    }

    private struct Author: Decodable {
        let id: Int64
        let name: String
        let screenName: String
        let imageURL: String

        private enum CodingKeys: String, CodingKey {
            case id
            case idString = "id_str"
            case name
            case screenName = "screen_name"
            case imageURL = "profile_image_url_https"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try TwitterIDCheck.decodeID(from: container, id: .id, idString: .idString)
            name = try container.decode(String.self, forKey: .name)
            screenName = try container.decode(String.self, forKey: .screenName)
            imageURL = try container.decode(String.self, forKey: .imageURL)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try TwitterIDCheck.decodeID(from: container, id: .id, idString: .idString)
        let text: String
        if let plain = try container.decodeIfPresent(String.self, forKey: .text) {
            text = plain
        } else if let full = try container.decodeIfPresent(String.self, forKey: .fullText) {
            text = full
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.text,
                .init(codingPath: container.codingPath, debugDescription: "neither 'text' nor 'full_text' present"))
        }
        let createdText = try container.decode(String.self, forKey: .createdAt)
        guard let created = TwitterDate.parse(createdText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container,
                debugDescription: "unparseable created_at \"\(createdText)\"")
        }
        let author = try container.decode(Author.self, forKey: .user)
        let isRetweet = try container.contains(.retweetedStatus) && !container.decodeNil(forKey: .retweetedStatus)
        tweet = Tweet(
            id: id,
            text: text,
            name: author.name,
            username: author.screenName,
            authorId: author.id,
            created: created,
            imageURL: author.imageURL,
            retweetCount: try container.decode(Int.self, forKey: .retweetCount),
            favoriteCount: try container.decodeIfPresent(Int.self, forKey: .favoriteCount) ?? 0,
            inReplyToId: try container.decodeIfPresent(Int64.self, forKey: .inReplyToStatusId),
            isRetweet: isRetweet,
            lang: try container.decodeIfPresent(String.self, forKey: .lang)
        )
    }
}
