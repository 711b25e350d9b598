import Foundation

/// A UTC calendar day, the section key of the list timeline (ordered by time).
///
/// ```swift
/// let day = TimelineDay(Date(timeIntervalSince1970: 1_544_258_835))
/// print(day.key) // "2018-12-08"
/// ```
public struct TimelineDay: Hashable, Comparable, Sendable, Codable {
    /// Whole days since 1970-01-01 UTC.
    ///
    /// ```swift
    /// print(TimelineDay(Date(timeIntervalSince1970: 86_400)).daysSince1970) // 1
    /// ```
    public var daysSince1970: Int

    /// The UTC day containing `date`.
    ///
    /// ```swift
    /// let today = TimelineDay(Date())
    /// ```
    public init(_ date: Date) {
        daysSince1970 = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The day's first instant.
    ///
    /// ```swift
    /// print(TimelineDay(Date()).start)
    /// ```
    public var start: Date { Date(timeIntervalSince1970: TimeInterval(daysSince1970) * 86_400) }

    /// `yyyy-MM-dd`.
    ///
    /// ```swift
    /// print(TimelineDay(Date(timeIntervalSince1970: 0)).key) // "1970-01-01"
    /// ```
    public var key: String { TimelineFormat.dayKey(of: start) }

    /// The section title, e.g. `"Saturday, Dec 8"` (with the year when not `now`'s year).
    ///
    /// ```swift
    /// print(day.title(now: Date()))
    /// ```
    public func title(now: Date) -> String { TimelineFormat.dayTitle(of: start, now: now) }

    /// Earlier days first.
    ///
    /// ```swift
    /// print(TimelineDay(.distantPast) < TimelineDay(Date())) // true
    /// ```
    public static func < (lhs: TimelineDay, rhs: TimelineDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}
