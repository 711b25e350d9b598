/// One section of table-ready rows: a stable key, a display title, and its rows. The view models
/// deliver their sections as this type (``TimelineSection`` is the timeline's), and a change feed
/// carries them unchanged, so a renderer draws a feed's sections as it would draw the view model's.
///
/// A section exists only while it has rows: days come and go as whole sections.
///
/// ```swift
/// for section in update.sections {
///     print(section.title)                              // "Saturday, Dec 8"
///     for row in section.rows { print("  ", row.text) }
/// }
/// ```
///
/// In the feed's JSON:
///
/// ```json
/// {"key":"2018-12-08","rows":[…],"title":"Saturday, Dec 8"}
/// ```
public struct FeedSection<Row: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// The section's identity: a UTC day as `yyyy-MM-dd`, or `all` for an unsectioned feed.
    ///
    /// ```swift
    /// let today = sections.first { $0.key == TimelineFormat.dayKey(of: Date()) }
    /// ```
    public var key: String
    /// The header title, e.g. `"Saturday, Dec 8"`, or `"All"`.
    ///
    /// ```swift
    /// header.text = section.title
    /// ```
    public var title: String
    /// The rows, in display order. In a view model's delivery they are made when read
    /// (``FeedList``): reading the rows a table shows costs those rows, not the section.
    ///
    /// ```swift
    /// let ids = section.rows.map(\.id)
    /// ```
    public var rows: FeedList<Row>

    /// Creates a section of stored rows.
    ///
    /// ```swift
    /// let section = FeedSection<TimelineRow>(key: "2018-12-08", title: "Saturday, Dec 8", rows: [])
    /// ```
    public init(key: String, title: String, rows: [Row]) {
        self.init(key: key, title: title, rows: FeedList(rows))
    }

    /// Creates a section of `rows`, stored or made on read.
    ///
    /// ```swift
    /// let section = FeedSection(key: "all", title: "All", rows: FeedList(count: tweets.count) { TimelineRow(tweets[$0], now: now) })
    /// ```
    public init(key: String, title: String, rows: FeedList<Row>) {
        self.key = key
        self.title = title
        self.rows = rows
    }
}
