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
