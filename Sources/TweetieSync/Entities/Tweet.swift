import Foundation
import TweetieDB

/// One status (tweet) as the Tweetie app shows it in a timeline row, stored in the `tweets`
/// collection.
///
/// `@Record` writes its storage form (the keys are the property names) and the fast codec. The
/// strings one author's tweets all repeat (names, avatar URL, language, lists) are `@Interned`: in
/// a scan, each distinct value is allocated once. The `Codable` conformance is the record JSON
/// form, written here rather than by `@Record`: its keys are the property names, and each id also
/// has a string twin (`idStr`, `authorIdStr`, `inReplyToIdStr`; see `IDStringTwin`). Twitter's
/// JSON is decoded by ``TwitterJSON`` through separate internal types, never through this
/// conformance.
///
/// ```swift
/// let page = try await api.timeline(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                                   cursor: TimelineCursor())
/// for tweet in page.tweets { print("@\(tweet.username): \(tweet.text)") }
/// ```
@Record(collection: "tweets")
public struct Tweet: Codable, Sendable, Hashable, Identifiable {
    /// The `created` index, newest first: timelines.
    ///
    /// ```swift
    /// Query<Tweet>().sorted(by: Tweet.byCreated).limit(50)
    /// ```
    public static let byCreated = Index<Tweet>.on("created", order: .descending) { $0.created }

    /// The `author` index: the username, lowercased, then newest first: a person's timeline.
    ///
    /// ```swift
    /// Query<Tweet>().filter(Tweet.byAuthor, equals: "icanzilb").sorted(by: Tweet.byAuthor)
    /// ```
    public static let byAuthor = Index<Tweet>.on("author") { $0.username.lowercased() }.then(order: .descending) { $0.created }

    /// The two indexes, ``byCreated`` and ``byAuthor``.
    ///
    /// ```swift
    /// print(Tweet.indexes.map(\.name)) // ["created", "author"]
    /// ```
    public static let indexes = [byCreated.index, byAuthor.index]

    /// The status id (Twitter's `id`, checked against `id_str`).
    ///
    /// ```swift
    /// let newest = page.tweets.map(\.id).max()
    /// ```
    public var id: Int64
    /// The status text as Twitter sent it (`text`; retweets start with `RT @handle:`).
    ///
    /// ```swift
    /// label.text = tweet.text
    /// ```
    public var text: String
    /// The author's display name (`user.name`).
    ///
    /// ```swift
    /// let title = tweet.name   // "Marin Todorov"
    /// ```
    @Interned public var name: String
    /// The author's handle without `@` (`user.screen_name`).
    ///
    /// ```swift
    /// let handle = "@" + tweet.username
    /// ```
    @Interned public var username: String
    /// The author's user id (`user.id`).
    ///
    /// ```swift
    /// let mine = tweets.filter { $0.authorId == me.id }
    /// ```
    public var authorId: Int64
    /// When the status was posted (`created_at`).
    ///
    /// ```swift
    /// let day = Calendar.current.startOfDay(for: tweet.created)
    /// ```
    public var created: Date
    /// The author's avatar URL (`user.profile_image_url_https`).
    ///
    /// ```swift
    /// let avatar = URL(string: tweet.imageURL)
    /// ```
    @Interned public var imageURL: String
    /// How often the status was retweeted (`retweet_count`).
    ///
    /// ```swift
    /// let badge = "\(tweet.retweetCount) RTs"
    /// ```
    public var retweetCount: Int
    /// How often the status was liked (`favorite_count`).
    ///
    /// ```swift
    /// let badge = "\(tweet.favoriteCount) ♥"
    /// ```
    public var favoriteCount: Int
    /// The id of the status this one replies to (`in_reply_to_status_id`), if any.
    ///
    /// ```swift
    /// if tweet.inReplyToId != nil { showReplyMarker() }
    /// ```
    public var inReplyToId: Int64?
    /// Whether this status is a retweet (Twitter sent a `retweeted_status`).
    ///
    /// ```swift
    /// let originals = tweets.filter { !$0.isRetweet }
    /// ```
    public var isRetweet: Bool
    /// The detected language code (`lang`, e.g. `"en"`, or `"und"`), if Twitter sent one.
    ///
    /// ```swift
    /// let english = tweets.filter { $0.lang == "en" }
    /// ```
    @Interned public var lang: String?

    /// The lists (`owner/slug`, see ``ListIdentifier/key``) whose timelines included this tweet;
    /// recorded by the fetcher, sorted. Records stored before this field existed decode with `[]`
    /// (its default value).
    ///
    /// ```swift
    /// let inRxSwift = tweet.lists.contains("icanzilb/RxSwift")
    /// ```
    @Interned public var lists: [String] = []

    /// Creates a tweet from its fields.
    ///
    /// ```swift
    /// let tweet = Tweet(id: 1, text: "Hello", name: "Ann", username: "ann", authorId: 7,
    ///                   created: Date(), imageURL: "https://example.com/a.png",
    ///                   retweetCount: 0, favoriteCount: 0)
    /// ```
    public init(
        id: Int64, text: String, name: String, username: String, authorId: Int64,
        created: Date, imageURL: String, retweetCount: Int, favoriteCount: Int,
        inReplyToId: Int64? = nil, isRetweet: Bool = false, lang: String? = nil, lists: [String] = []
    ) {
        self.id = id
        self.text = text
        self.name = name
        self.username = username
        self.authorId = authorId
        self.created = created
        self.imageURL = imageURL
        self.retweetCount = retweetCount
        self.favoriteCount = favoriteCount
        self.inReplyToId = inReplyToId
        self.isRetweet = isRetweet
        self.lang = lang
        self.lists = lists
    }

    private enum CodingKeys: String, CodingKey {
        case id, text, name, username, authorId, created, imageURL, retweetCount, favoriteCount, inReplyToId, isRetweet, lang, lists
    }

    /// Decodes the storage or JSON form; `lists`, added later, defaults to `[]`; ids may come as
    /// numbers, strings or both (`IDStringTwin`).
    ///
    /// ```swift
    /// let tweet = try RecordJSON.decoder().decode(Tweet.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let ids = try decoder.container(keyedBy: IDStringTwin.Key.self)
        id = try IDStringTwin.decode("id", in: ids)
        text = try c.decode(String.self, forKey: .text)
        name = try c.decode(String.self, forKey: .name)
        username = try c.decode(String.self, forKey: .username)
        authorId = try IDStringTwin.decode("authorId", in: ids)
        created = try c.decode(Date.self, forKey: .created)
        imageURL = try c.decode(String.self, forKey: .imageURL)
        retweetCount = try c.decode(Int.self, forKey: .retweetCount)
        favoriteCount = try c.decode(Int.self, forKey: .favoriteCount)
        inReplyToId = try IDStringTwin.decodeIfPresent("inReplyToId", in: ids)
        isRetweet = try c.decode(Bool.self, forKey: .isRetweet)
        lang = try c.decodeIfPresent(String.self, forKey: .lang)
        lists = try c.decodeIfPresent([String].self, forKey: .lists) ?? []
    }

    /// Writes the JSON form: the storage fields, each id with its string twin (`IDStringTwin`).
    ///
    /// ```swift
    /// let json = try RecordJSON.encoder().encode(tweet)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: IDStringTwin.Key.self)
        try IDStringTwin.encode(id, "id", to: &c)
        try c.encode(text, forKey: "text")
        try c.encode(name, forKey: "name")
        try c.encode(username, forKey: "username")
        try IDStringTwin.encode(authorId, "authorId", to: &c)
        try c.encode(created, forKey: "created")
        try c.encode(imageURL, forKey: "imageURL")
        try c.encode(retweetCount, forKey: "retweetCount")
        try c.encode(favoriteCount, forKey: "favoriteCount")
        try IDStringTwin.encode(inReplyToId, "inReplyToId", to: &c)
        try c.encode(isRetweet, forKey: "isRetweet")
        try c.encodeIfPresent(lang, forKey: "lang")
        try c.encode(lists, forKey: "lists")
    }
}

/// `Tweet`'s JSON form written member by member for export, keys in byte order: the same text as
/// ``encode(to:)`` (`JSONObjectWritingTests` compares the two).
extension Tweet: JSONObjectWritable {
    /// Writes this tweet's members for an export line, in their keys' byte order.
    ///
    /// ```swift
    /// var writer = RecordJSONWriter()
    /// try writer.appendObject(tweet, to: &line)   // calls this, or encode(to:) if it fails
    /// ```
    public func writeJSONObject(to object: inout JSONObjectWriter) {
        object.write(authorId, forKey: "authorId")
        object.write(decimalText: authorId, forKey: "authorIdStr")
        object.write(created, forKey: "created")
        object.write(favoriteCount, forKey: "favoriteCount")
        object.write(id, forKey: "id")
        object.write(decimalText: id, forKey: "idStr")
        object.write(imageURL, forKey: "imageURL")
        if let inReplyToId {
            object.write(inReplyToId, forKey: "inReplyToId")
            object.write(decimalText: inReplyToId, forKey: "inReplyToIdStr")
        }
        object.write(isRetweet, forKey: "isRetweet")
        object.writeIfPresent(lang, forKey: "lang")
        object.write(lists, forKey: "lists")
        object.write(name, forKey: "name")
        object.write(retweetCount, forKey: "retweetCount")
        object.write(text, forKey: "text")
        object.write(username, forKey: "username")
    }
}

/// `Tweet` read from an import line's object by name, keys in byte order: the record
/// `init(from:)` (`Decodable`) makes of it, or `nil` to leave anything unusual to `init(from:)` (`Decodable`)
/// (`JSONObjectReadingTests` compares the two).
extension Tweet: JSONObjectReadable {
    /// Reads a tweet from an import line's object, or `nil` to leave it to `init(from:)` (`Decodable`).
    ///
    /// ```swift
    /// let tweet = Tweet(jsonObject: &json) ?? (try RecordJSON.decoder().decode(Tweet.self, from: line))
    /// ```
    public init?(jsonObject json: inout JSONObjectReader) {
        let authorId = json.id("authorId", twin: "authorIdStr")
        let created = json.date("created")
        let favoriteCount = json.integer("favoriteCount", as: Int.self)
        let id = json.id("id", twin: "idStr")
        let imageURL = json.string("imageURL")
        let inReplyToId = json.id("inReplyToId", twin: "inReplyToIdStr")
        let isRetweet = json.bool("isRetweet")
        let lang = json.stringIfPresent("lang")
        let lists = json.stringsIfPresent("lists")
        let name = json.string("name")
        let retweetCount = json.integer("retweetCount", as: Int.self)
        let text = json.string("text")
        let username = json.string("username")
        guard !json.failed, let authorId, let created, let favoriteCount, let id, let imageURL, let isRetweet,
              let name, let retweetCount, let text, let username else { return nil }
        self.init(id: id, text: text, name: name, username: username, authorId: authorId, created: created, imageURL: imageURL,
                  retweetCount: retweetCount, favoriteCount: favoriteCount, inReplyToId: inReplyToId, isRetweet: isRetweet,
                  lang: lang, lists: lists ?? [])
    }
}
