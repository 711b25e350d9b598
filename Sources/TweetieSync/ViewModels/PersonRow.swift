/// A row of the `people` feed: a list member, display-ready.
///
/// ```swift
/// let row = PersonRow(user)
/// ```
public struct PersonRow: Codable, Sendable, Hashable, Identifiable {
    /// The user's id.
    public var id: Int64
    /// The display name.
    public var name: String
    /// `@username`.
    public var handle: String
    /// The profile description.
    public var about: String
    /// The profile image URL.
    public var imageURL: String

    /// The row for `user`.
    ///
    /// ```swift
    /// let row = PersonRow(user)
    /// ```
    public init(_ user: User) {
        id = user.id
        name = user.name
        handle = "@" + user.username
        about = user.about
        imageURL = user.imageURL
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, handle, about, imageURL
    }

    /// Decodes a row of the `people` feed, whose `id` is a decimal string (since feed format version 2).
    ///
    /// ```swift
    /// let row = try JSONDecoder().decode(PersonRow.self, from: json)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try FeedRowID.decode(from: container, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        handle = try container.decode(String.self, forKey: .handle)
        about = try container.decode(String.self, forKey: .about)
        imageURL = try container.decode(String.self, forKey: .imageURL)
    }

    /// Encodes the row as the `people` feed carries it: `id` as a decimal string.
    ///
    /// ```swift
    /// let json = try JSONEncoder().encode(row)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try FeedRowID.encode(id, to: &container, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(handle, forKey: .handle)
        try container.encode(about, forKey: .about)
        try container.encode(imageURL, forKey: .imageURL)
    }

    /// The user fields a person row shows.
    ///
    /// ```swift
    /// store.observe(query, modificationsOf: PersonRow.sourceFields)
    /// ```
    public static let sourceFields: [ObservedField<User>] = [
        ObservedField(\User.name), ObservedField(\User.username), ObservedField(\User.about), ObservedField(\User.imageURL),
    ]
}
