import Foundation

/// How a feed groups its rows.
///
/// ```swift
/// let feed = TweetieFeeds.list(list, store: store, sections: .day, now: Date())
/// ```
public enum FeedSectioning: String, Sendable, CaseIterable {
    /// One section per UTC day, newest day first.
    case day
    /// One section, `all`, holding every row.
    case none
}

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

    /// Decodes a row of the `people` feed, whose `id` is a decimal string (feed format version 2).
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

/// A live change feed: the observation to consume and the builder that turns each element into a
/// ``FeedMessage``.
///
/// ```swift
/// var feed = TweetieFeeds.list(list, store: store, sections: .day, now: Date())
/// for try await change in feed.observation { print(feed.builder.message(for: change, moves: true)) }
/// ```
public struct ChangeFeed<R: Record, Row: Codable & Sendable & Hashable> {
    /// The sectioned observation of the store.
    public let observation: SectionedQueryObservation<String, R>
    /// Builds messages from its elements.
    public var builder: FeedBuilder<R, String, Row>
}

/// The change feeds `tweetie-db feed` serves: the same queries, rows and shown fields as the view
/// models, with the reference time for relative times fixed for the feed's lifetime (so that a
/// renderer's applied copy equals a fresh snapshot).
///
/// ```swift
/// let feed = TweetieFeeds.person("icanzilb", store: store, sections: .none, now: Date())
/// ```
public enum TweetieFeeds {
    static func title(ofSection key: String, now: Date) -> String {
        if key == "all" { return "All" }
        guard let date = try? Date(key + "T00:00:00Z", strategy: .iso8601) else { return key }
        return TimelineFormat.dayTitle(of: date, now: now)
    }

    static func tweetFeed(_ query: Query<Tweet>, name: String, store: Store, sections: FeedSectioning, now: Date) -> ChangeFeed<Tweet, TimelineRow> {
        let observation = store.observe(query, sectionedBy: { sections == .day ? TimelineFormat.dayKey(of: $0.created) : "all" },
                                        sectionOrder: .descending, modificationsOf: TimelineRow.sourceFields)
        let builder = FeedBuilder<Tweet, String, TimelineRow>(feed: name, row: { TimelineRow($0, now: now) },
                                                             section: { ($0, title(ofSection: $0, now: now)) })
        return ChangeFeed(observation: observation, builder: builder)
    }

    /// The list timeline: the list's stored tweets, newest first (``ListTimelineViewModel``).
    ///
    /// ```swift
    /// let feed = TweetieFeeds.list(ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store, sections: .day, now: Date())
    /// ```
    public static func list(_ list: ListIdentifier, store: Store, sections: FeedSectioning, now: Date) -> ChangeFeed<Tweet, TimelineRow> {
        tweetFeed(TimelineTarget.list(list).storedTweets, name: "list \(list.key)", store: store, sections: sections, now: now)
    }

    /// A person's stored tweets, newest first (``PersonTimelineViewModel``).
    ///
    /// ```swift
    /// let feed = TweetieFeeds.person("icanzilb", store: store, sections: .none, now: Date())
    /// ```
    public static func person(_ username: String, store: Store, sections: FeedSectioning, now: Date) -> ChangeFeed<Tweet, TimelineRow> {
        tweetFeed(TimelineTarget.user(username).storedTweets, name: "person \(username)", store: store, sections: sections, now: now)
    }

    /// The list's stored members, by username (``ListPeopleViewModel``), in one section `all`.
    ///
    /// ```swift
    /// let feed = TweetieFeeds.people(list, store: store)
    /// ```
    public static func people(_ list: ListIdentifier, store: Store) -> ChangeFeed<User, PersonRow> {
        let observation = store.observe(ListPeopleViewModel.members(of: list), sectionedBy: { _ in "all" }, sectionOrder: .ascending, modificationsOf: PersonRow.sourceFields)
        let builder = FeedBuilder<User, String, PersonRow>(feed: "people \(list.key)", row: PersonRow.init, section: { ($0, "All") })
        return ChangeFeed(observation: observation, builder: builder)
    }
}
