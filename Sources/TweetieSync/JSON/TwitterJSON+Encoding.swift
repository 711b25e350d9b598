import Foundation

extension TwitterJSON {
    /// Encodes statuses as a Twitter API v1.1 timeline body (a JSON array), the inverse of
    /// ``decodeStatuses(_:source:)``.
    ///
    /// The body carries what ``Tweet`` keeps, in Twitter's shapes: `id` with `id_str`, `created_at`
    /// in Twitter's format, a `user` object, `in_reply_to_status_id` (null when the status is no
    /// reply), `lang` only when known, and for a retweet a `retweeted_status` object holding what
    /// the `RT @name: text` form tells of the original. Keys are sorted, so the same statuses
    /// always give the same bytes.
    ///
    /// ```swift
    /// let body = try TwitterJSON.encodeStatuses(page.tweets)
    /// let again = try TwitterJSON.decodeStatuses(body, source: "round trip").items   // == page.tweets
    /// ```
    public static func encodeStatuses(_ tweets: [Tweet]) throws -> Data {
        try serialize(tweets.map(statusObject))
    }

    /// Encodes users as a `lists/members.json` body (`{"users": [...]}`), the inverse of
    /// ``decodeMembers(_:source:)``. An empty ``User/url`` is written as `null` and an empty
    /// ``User/about`` as an empty `description`, as Twitter does.
    ///
    /// ```swift
    /// let body = try TwitterJSON.encodeMembers(members.users)
    /// ```
    public static func encodeMembers(_ users: [User]) throws -> Data {
        try serialize(["users": users.map(userObject)])
    }

    private static func serialize(_ object: Any) throws -> Data {
        var data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    private static func statusObject(_ tweet: Tweet) -> [String: Any] {
        var object: [String: Any] = [
            "id": tweet.id, "id_str": String(tweet.id), "text": tweet.text, "truncated": false,
            "created_at": TwitterDate.format(tweet.created),
            "user": [
                "id": tweet.authorId, "id_str": String(tweet.authorId), "name": tweet.name,
                "screen_name": tweet.username, "profile_image_url_https": tweet.imageURL,
            ] as [String: Any],
            "retweet_count": tweet.retweetCount, "favorite_count": tweet.favoriteCount,
            "in_reply_to_status_id": tweet.inReplyToId.map { $0 as Any } ?? NSNull(),
            "in_reply_to_status_id_str": tweet.inReplyToId.map { String($0) as Any } ?? NSNull(),
        ]
        if let lang = tweet.lang { object["lang"] = lang }
        if tweet.isRetweet { object["retweeted_status"] = retweetedStatus(of: tweet.text) }
        return object
    }

    /// What a retweet's own text (`RT @name: original text`) says of the original status.
    private static func retweetedStatus(of text: String) -> [String: Any] {
        guard text.hasPrefix("RT @"), let colon = text.range(of: ": ") else { return [:] }
        let name = text[text.index(text.startIndex, offsetBy: 4)..<colon.lowerBound]
        return ["text": String(text[colon.upperBound...]), "user": ["screen_name": String(name)]]
    }

    private static func userObject(_ user: User) -> [String: Any] {
        [
            "id": user.id, "id_str": String(user.id), "name": user.name, "screen_name": user.username,
            "description": user.about, "url": user.url.isEmpty ? NSNull() : user.url as Any,
            "profile_image_url_https": user.imageURL,
        ]
    }
}
