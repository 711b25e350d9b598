import Foundation
import TweetieDB

/// A Twitter account, as listed among a list's members, stored in the `users` collection.
///
/// `@Record` writes its storage form (keys are the property names) and the fast codec; the
/// strings many records repeat are `@Interned`. The `Codable` conformance is the record JSON form,
/// written here rather than by `@Record`: keys are the property names, and the id has a string
/// twin `idStr` (see `IDStringTwin`). Twitter's JSON is decoded by ``TwitterJSON`` through
/// internal types.
///
/// ```swift
/// let members = try await api.members(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"))
/// for user in members.users { print(user.name, "@" + user.username) }
/// ```
@Record(collection: "users")
public struct User: Codable, Sendable, Hashable, Identifiable {
    /// The `username` index, case-insensitive (the username lowercased). Not unique: a screen name
    /// can pass from one account to another over time.
    ///
    /// ```swift
    /// Query<User>().filter(User.byUsername, equals: "icanzilb")
    /// ```
    public static let byUsername = Index<User>.on("username") { $0.username.lowercased() }

    /// The one index, ``byUsername``.
    ///
    /// ```swift
    /// print(User.indexes.map(\.name)) // ["username"]
    /// ```
    public static let indexes = [byUsername.index]

    /// The user id (Twitter's `id`, checked against `id_str`).
    ///
    /// ```swift
    /// let byId = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
    /// ```
    public var id: Int64
    /// The display name (`name`).
    ///
    /// ```swift
    /// cell.title = user.name
    /// ```
    @Interned public var name: String
    /// The handle without `@` (`screen_name`).
    ///
    /// ```swift
    /// let timeline = try await api.timeline(of: user.username, cursor: TimelineCursor())
    /// ```
    @Interned public var username: String
    /// The profile text (`description`; `""` when absent).
    ///
    /// ```swift
    /// cell.subtitle = user.about
    /// ```
    public var about: String
    /// The profile link (`url`; `""` when Twitter sent `null`).
    ///
    /// ```swift
    /// if !user.url.isEmpty { openLink(user.url) }
    /// ```
    @Interned public var url: String
    /// The avatar URL (`profile_image_url_https`).
    ///
    /// ```swift
    /// let avatar = URL(string: user.imageURL)
    /// ```
    @Interned public var imageURL: String

    /// The lists (`owner/slug`) this user was fetched as a member of; sorted. Decodes as `[]`
    /// from records stored before the field existed (its default value).
    ///
    /// ```swift
    /// let member = user.lists.contains("icanzilb/RxSwift")
    /// ```
    @Interned public var lists: [String] = []

    /// Creates a user from its fields.
    ///
    /// ```swift
    /// let user = User(id: 7, name: "Ann", username: "ann", about: "", url: "",
    ///                 imageURL: "https://example.com/a.png")
    /// ```
    public init(id: Int64, name: String, username: String, about: String, url: String, imageURL: String, lists: [String] = []) {
        self.id = id
        self.name = name
        self.username = username
        self.about = about
        self.url = url
        self.imageURL = imageURL
        self.lists = lists
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, username, about, url, imageURL, lists
    }

    /// Decodes the storage or JSON form; `lists`, added later, defaults to `[]`; the id may come
    /// as a number, a string or both (`IDStringTwin`).
    ///
    /// ```swift
    /// let user = try RecordJSON.decoder().decode(User.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try IDStringTwin.decode("id", from: decoder)
        name = try c.decode(String.self, forKey: .name)
        username = try c.decode(String.self, forKey: .username)
        about = try c.decode(String.self, forKey: .about)
        url = try c.decode(String.self, forKey: .url)
        imageURL = try c.decode(String.self, forKey: .imageURL)
        lists = try c.decodeIfPresent([String].self, forKey: .lists) ?? []
    }

    /// Writes the JSON form: the storage fields, the id with its string twin (`IDStringTwin`).
    ///
    /// ```swift
    /// let json = try RecordJSON.encoder().encode(user)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: IDStringTwin.Key.self)
        try IDStringTwin.encode(id, "id", to: &c)
        try c.encode(name, forKey: "name")
        try c.encode(username, forKey: "username")
        try c.encode(about, forKey: "about")
        try c.encode(url, forKey: "url")
        try c.encode(imageURL, forKey: "imageURL")
        try c.encode(lists, forKey: "lists")
    }
}

/// `User`'s JSON form written member by member for export, keys in byte order: the same text as
/// ``encode(to:)`` (`JSONObjectWritingTests` compares the two).
extension User: JSONObjectWritable {
    /// Writes this user's members for an export line, in their keys' byte order.
    ///
    /// ```swift
    /// var writer = RecordJSONWriter()
    /// try writer.appendObject(user, to: &line)   // calls this, or encode(to:) if it fails
    /// ```
    public func writeJSONObject(to object: inout JSONObjectWriter) {
        object.write(about, forKey: "about")
        object.write(id, forKey: "id")
        object.write(decimalText: id, forKey: "idStr")
        object.write(imageURL, forKey: "imageURL")
        object.write(lists, forKey: "lists")
        object.write(name, forKey: "name")
        object.write(url, forKey: "url")
        object.write(username, forKey: "username")
    }
}

/// `User` read from an import line's object by name, keys in byte order: the record
/// `init(from:)` (`Decodable`) makes of it, or `nil` to leave anything unusual to `init(from:)` (`Decodable`)
/// (`JSONObjectReadingTests` compares the two).
extension User: JSONObjectReadable {
    /// Reads a user from an import line's object, or `nil` to leave it to `init(from:)` (`Decodable`).
    ///
    /// ```swift
    /// let user = User(jsonObject: &json) ?? (try RecordJSON.decoder().decode(User.self, from: line))
    /// ```
    public init?(jsonObject json: inout JSONObjectReader) {
        let about = json.string("about")
        let id = json.id("id", twin: "idStr")
        let imageURL = json.string("imageURL")
        let lists = json.stringsIfPresent("lists")
        let name = json.string("name")
        let url = json.string("url")
        let username = json.string("username")
        guard !json.failed, let about, let id, let imageURL, let name, let url, let username else { return nil }
        self.init(id: id, name: name, username: username, about: about, url: url, imageURL: imageURL, lists: lists ?? [])
    }
}
