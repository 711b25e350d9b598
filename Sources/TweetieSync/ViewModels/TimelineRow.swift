import Foundation

/// One table row of a timeline: what a tweet cell shows.
///
/// ```swift
/// let row = TimelineRow(tweet, now: Date())
/// cell.title.text = "\(row.author) \(row.handle) · \(row.relativeTime)"
/// cell.body.text = row.text
/// ```
public struct TimelineRow: Codable, Sendable, Hashable, Identifiable {
    /// The tweet id.
    ///
    /// ```swift
    /// let selected = rows.first { $0.id == tappedId }
    /// ```
    public var id: Int64
    /// The author's display name.
    ///
    /// ```swift
    /// print(row.author) // "Marin Todorov"
    /// ```
    public var author: String
    /// The author's handle with `@`.
    ///
    /// ```swift
    /// print(row.handle) // "@icanzilb"
    /// ```
    public var handle: String
    /// The tweet text.
    ///
    /// ```swift
    /// print(row.text)
    /// ```
    public var text: String
    /// The age relative to the `now` the row was made with: `"5m"`, `"3h"`, `"2d"`, or `"Dec 8"`
    /// (see ``TimelineFormat/relativeTime(of:now:)``).
    ///
    /// ```swift
    /// print(row.relativeTime) // "3h"
    /// ```
    public var relativeTime: String
    /// The author's avatar URL.
    ///
    /// ```swift
    /// let avatar = URL(string: row.imageURL)
    /// ```
    public var imageURL: String
    /// When the tweet was posted.
    ///
    /// ```swift
    /// print(row.created)
    /// ```
    public var created: Date

    /// Creates a row from its fields.
    ///
    /// ```swift
    /// let row = TimelineRow(id: 1, author: "Ann", handle: "@ann", text: "Hi", relativeTime: "5m",
    ///                       imageURL: "https://example.com/a.png", created: Date())
    /// ```
    public init(id: Int64, author: String, handle: String, text: String, relativeTime: String, imageURL: String, created: Date) {
        self.id = id
        self.author = author
        self.handle = handle
        self.text = text
        self.relativeTime = relativeTime
        self.imageURL = imageURL
        self.created = created
    }

    /// The row for `tweet`, its age computed against `now`.
    ///
    /// ```swift
    /// let row = TimelineRow(tweet, now: Date())
    /// ```
    public init(_ tweet: Tweet, now: Date) {
        self.init(id: tweet.id, author: tweet.name, handle: "@" + tweet.username, text: tweet.text,
                  relativeTime: TimelineFormat.relativeTime(of: tweet.created, now: now),
                  imageURL: tweet.imageURL, created: tweet.created)
    }

    /// Whether two rows show the same tweet content, ignoring ``relativeTime`` (which depends on
    /// when the row was made, not on the tweet).
    ///
    /// ```swift
    /// if old.hasSameContent(as: new) { skipReload() }
    /// ```
    public func hasSameContent(as other: TimelineRow) -> Bool {
        id == other.id && author == other.author && handle == other.handle && text == other.text
            && imageURL == other.imageURL && created == other.created
    }
}

extension TimelineRow {
    private enum CodingKeys: String, CodingKey {
        case id, author, handle, text, relativeTime, imageURL, created
    }

    /// Decodes a row of the change feed, whose `id` is a decimal string (since feed format version 2).
    ///
    /// ```swift
    /// let row = try RecordJSON.decoder().decode(TimelineRow.self, from: json)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try FeedRowID.decode(from: container, forKey: .id),
                  author: try container.decode(String.self, forKey: .author),
                  handle: try container.decode(String.self, forKey: .handle),
                  text: try container.decode(String.self, forKey: .text),
                  relativeTime: try container.decode(String.self, forKey: .relativeTime),
                  imageURL: try container.decode(String.self, forKey: .imageURL),
                  created: try container.decode(Date.self, forKey: .created))
    }

    /// Encodes the row as the change feed carries it: `id` as a decimal string, so that readers
    /// whose numbers are doubles (JavaScript) keep tweet ids above 2^53 exact.
    ///
    /// ```swift
    /// let json = try RecordJSON.encoder().encode(row)   // {"author":…,"id":"1071325319259414528",…}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try FeedRowID.encode(id, to: &container, forKey: .id)
        try container.encode(author, forKey: .author)
        try container.encode(handle, forKey: .handle)
        try container.encode(text, forKey: .text)
        try container.encode(relativeTime, forKey: .relativeTime)
        try container.encode(imageURL, forKey: .imageURL)
        try container.encode(created, forKey: .created)
    }
}

extension TimelineRow {
    /// The tweet fields a row shows (relative time aside): a change to any other field (counts,
    /// list membership) is not a modification of the row.
    ///
    /// ```swift
    /// store.observe(query, modificationsOf: TimelineRow.sourceFields)
    /// ```
    public static let sourceFields: [ObservedField<Tweet>] = [
        ObservedField(\Tweet.text), ObservedField(\Tweet.name), ObservedField(\Tweet.username),
        ObservedField(\Tweet.imageURL), ObservedField(\Tweet.created),
    ]
}
