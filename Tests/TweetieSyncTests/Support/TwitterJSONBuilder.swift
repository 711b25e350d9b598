import Foundation
@testable import TweetieSync

/// Builds Twitter API v1.1 JSON in code, shaped like the real responses.
enum TwitterJSONBuilder {
    static func user(id: Int64, name: String, screenName: String, description: String? = "about me",
                     url: String? = "https://t.co/abc") -> [String: Any] {
        var object: [String: Any] = [
            "id": id, "id_str": String(id), "name": name, "screen_name": screenName,
            "profile_image_url_https": "https://pbs.twimg.com/profile_images/\(id)/a_normal.jpg",
            "protected": false, "followers_count": 10,
        ]
        object["description"] = description ?? NSNull()
        object["url"] = url ?? NSNull()
        return object
    }

    static func status(id: Int64, text: String = "hello", created: String = "Sat Dec 08 08:47:15 +0000 2018",
                       userId: Int64 = 7, retweets: Int = 1, favorites: Int = 2,
                       inReplyTo: Int64? = nil, retweeted: [String: Any]? = nil) -> [String: Any] {
        var object: [String: Any] = [
            "created_at": created, "id": id, "id_str": String(id), "text": text, "truncated": false,
            "user": user(id: userId, name: "User \(userId)", screenName: "user\(userId)"),
            "retweet_count": retweets, "favorite_count": favorites, "lang": "en",
            "in_reply_to_status_id": inReplyTo.map { $0 as Any } ?? NSNull(),
            "entities": ["hashtags": [Any](), "urls": [Any]()],
        ]
        if let retweeted { object["retweeted_status"] = retweeted }
        return object
    }

    static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }
}
