import Foundation
import TweetieDB
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The records the NDJSON fuzz target starts from, made in code: awkward text (quotes,
/// backslashes, newlines, non-ASCII, emoji), extreme integers, optional fields set and unset.
///
/// ```swift
/// let store = try TweetieDatabase.temporary()
/// try FuzzSeeds.seed(store)
/// ```
package enum FuzzSeeds {
    /// Twelve tweets by three authors.
    package static func tweets() -> [Tweet] {
        let texts = ["plain", "quote \" and backslash \\", "line\nbreak\ttab", "ünïcödé — “curly”", "emoji 🐦‍⬛👍🏽",
                     "</script>/slashes/", "", String(repeating: "long ", count: 60), "\u{0001}control", "RT @x: hi", "#rxswift", "null"]
        let authors: [(Int64, String, String)] = [(1, "ashfurrow", "Ash Furrow"), (2, "fpillet", "Florent Pillet"), (3, "icanzilb", "Marin Todorov")]
        return texts.enumerated().map { offset, text in
            let author = authors[offset % authors.count]
            return Tweet(id: Int64(1_070_000_000_000_000_000 + offset * 7), text: text, name: author.2, username: author.1, authorId: author.0,
                         created: Date(timeIntervalSince1970: 1_544_000_000 + Double(offset) * 3_600),
                         imageURL: "https://pbs.twimg.com/profile_images/\(author.0)/a.png",
                         retweetCount: offset == 3 ? Int.max : offset, favoriteCount: offset * 11,
                         inReplyToId: offset % 4 == 0 ? Int64.max : nil, isRetweet: offset == 9,
                         lang: offset % 3 == 0 ? nil : "en", lists: offset % 2 == 0 ? ["RxSwift"] : [])
        }
    }

    /// Four users.
    package static func users() -> [User] {
        [User(id: 1, name: "Ash Furrow", username: "ashfurrow", about: "Canadian 🇨🇦", url: "https://ashfurrow.com", imageURL: "https://a/1.png", lists: ["RxSwift"]),
         User(id: 2, name: "Florent Pillet", username: "fpillet", about: "", url: "", imageURL: "https://a/2.png"),
         User(id: 3, name: "Marin \"Todorov\"", username: "icanzilb", about: "line\nbreak", url: "http://x", imageURL: "https://a/3.png", lists: ["RxSwift", "Swift"]),
         User(id: Int64.max, name: "Max", username: "max", about: "\\", url: "/", imageURL: "/")]
    }

    /// Writes the seed records into `store`.
    package static func seed(_ store: Store) throws {
        try store.write { tx in
            for tweet in tweets() { try tx.add(tweet, update: .all) }
            for user in users() { try tx.add(user, update: .all) }
        }
    }

    /// Brings `store` back to `export` (an export of it) by a replace-mode import.
    package static func restore(_ store: Store, to export: [UInt8]) throws {
        let path = store.path + ".restore.ndjson"
        try Data(export).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw FuzzFinding("cannot open \(path)") }
        defer { Glibc.close(fd) }
        _ = try store.importNDJSON(from: fd, mode: .replace)
    }

    /// The store's NDJSON export as bytes.
    package static func export(_ store: Store) throws -> [UInt8] {
        var out: [UInt8] = []
        try store.exportNDJSON { out.append(contentsOf: $0) }
        return out
    }
}

extension FuzzSeeds {
    /// Small Twitter v1.1 bodies made in code (no captured data), for `target`: valid statuses,
    /// members or users with awkward values, plus an empty body of the right shape.
    ///
    /// ```swift
    /// let seeds = FuzzSeeds.twitterJSON(for: .statuses)
    /// ```
    package static func twitterJSON(for target: FuzzTarget) -> [[UInt8]] {
        let users = [
            #"{"id":1,"id_str":"1","name":"Ash Furrow","screen_name":"ashfurrow","description":"Canadian \ud83c\udde8\ud83c\udde6","url":"https:\/\/ashfurrow.com","profile_image_url_https":"https:\/\/pbs.twimg.com\/1.png"}"#,
            #"{"id":9223372036854775807,"id_str":"9223372036854775807","name":"M\u00e4x \"Q\"","screen_name":"max","description":null,"url":null,"profile_image_url_https":"https:\/\/a\/2.png"}"#,
        ]
        let statuses = [
            #"{"created_at":"Sat Dec 08 08:47:15 +0000 2018","id":1071321291463921664,"id_str":"1071321291463921664","text":"hello \"world\" \\ \n #RxSwift","user":{"id":1,"id_str":"1","name":"Ash Furrow","screen_name":"ashfurrow","profile_image_url_https":"https:\/\/a\/1.png"},"retweet_count":3,"favorite_count":7,"in_reply_to_status_id":null,"lang":"en"}"#,
            #"{"created_at":"Mon Dec 10 23:59:59 +0000 2018","id":1072,"id_str":"1072","full_text":"RT @x: \u00fc\ud83d\udc26","user":{"id":2,"id_str":"2","name":"F","screen_name":"fpillet","profile_image_url_https":"x"},"retweet_count":0,"in_reply_to_status_id":1071,"retweeted_status":{"id":1},"lang":null}"#,
        ]
        switch target {
        case .statuses: return ["[" + statuses.joined(separator: ",") + "]", "[]", "[" + statuses[0] + "]"].map { Array($0.utf8) }
        case .members: return [#"{"users":["# + users.joined(separator: ",") + #"],"next_cursor":0}"#, #"{"users":[]}"#].map { Array($0.utf8) }
        case .users: return ["[" + users.joined(separator: ",") + "]", "[]"].map { Array($0.utf8) }
        case .ndjson: return []
        }
    }
}
