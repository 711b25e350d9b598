import Foundation
import TweetieDB

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

    /// The UTC day containing `date`. A date whose day an export cannot write (not finite, or
    /// about 292 million years from 1970) gets the nearest day it can, and NaN the earliest,
    /// rather than trapping.
    ///
    /// ```swift
    /// let today = TimelineDay(Date())
    /// ```
    public init(_ date: Date) {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        daysSince1970 = days.isNaN ? Self.days.lowerBound : Int(min(max(days, Double(Self.days.lowerBound)), Double(Self.days.upperBound)))
    }

    /// The days ``init(_:)`` gives: those whose first instant an export can write
    /// (`RecordJSON.hasText(_:)`: within ±9.2 × 10^18 milliseconds of 1970).
    static let days = -106_481_481_481...106_481_481_481

    /// The day's first instant.
    ///
    /// ```swift
    /// print(TimelineDay(Date()).start)
    /// ```
    public var start: Date { Date(timeIntervalSince1970: TimeInterval(daysSince1970) * 86_400) }

    /// `yyyy-MM-dd`: the day in the proleptic Gregorian calendar, the export's dates' calendar,
    /// and like them with years outside 0000…9999 in ISO 8601's expanded form, a sign and at
    /// least four digits (`ISO8601.CivilDate.text`).
    ///
    /// ```swift
    /// print(TimelineDay(Date(timeIntervalSince1970: 0)).key)                  // "1970-01-01"
    /// print(TimelineDay(RecordJSON.date(from: "-0195-01-13T10:00:00Z")!).key) // "-0195-01-13"
    /// ```
    public var key: String { ISO8601.CivilDate(daysSince1970: daysSince1970).text }

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
