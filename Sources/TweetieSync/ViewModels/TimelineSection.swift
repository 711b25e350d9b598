/// One section of the list timeline: the tweets of one UTC day, newest first.
///
/// ```swift
/// for section in update.sections { print(section.title, section.rows.count) }
/// ```
public struct TimelineSection: Codable, Sendable, Hashable {
    /// The UTC day, `yyyy-MM-dd` (the section's identity).
    ///
    /// ```swift
    /// print(section.key) // "2018-12-08"
    /// ```
    public var key: String
    /// The header title, e.g. `"Saturday, Dec 8"`.
    ///
    /// ```swift
    /// header.text = section.title
    /// ```
    public var title: String
    /// The rows, newest first.
    ///
    /// ```swift
    /// let ids = section.rows.map(\.id)
    /// ```
    public var rows: [TimelineRow]

    /// Creates a section.
    ///
    /// ```swift
    /// let section = TimelineSection(key: "2018-12-08", title: "Saturday, Dec 8", rows: [])
    /// ```
    public init(key: String, title: String, rows: [TimelineRow]) {
        self.key = key
        self.title = title
        self.rows = rows
    }
}
