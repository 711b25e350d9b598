import Foundation
import TweetieDB

/// The timeline's text formats, all in UTC with English names (stable across machines), in the
/// export's calendar (`ISO8601.CivilDate`: proleptic Gregorian, never Foundation's `Calendar`).
///
/// ```swift
/// let created = Date(timeIntervalSince1970: 1_544_258_835)            // 2018-12-08 08:47:15 UTC
/// print(TimelineFormat.relativeTime(of: created, now: created + 300)) // "5m"
/// print(TimelineFormat.dayKey(of: created))                           // "2018-12-08"
/// ```
public enum TimelineFormat {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// How long ago `date` was, relative to `now`: seconds (`"42s"`, `"0s"` for a future date),
    /// minutes (`"5m"`), hours (`"3h"`), days up to six (`"2d"`), then the date (`"Dec 8"`,
    /// with the year when it is not `now`'s year: `"Dec 8, 2017"`). Units are truncated. Dates
    /// are UTC days of the export's calendar (`ISO8601.CivilDate`: proleptic Gregorian,
    /// astronomical years, so `"Jan 13, -195"`).
    ///
    /// ```swift
    /// TimelineFormat.relativeTime(of: posted, now: posted + 3 * 3600) // "3h"
    /// ```
    public static func relativeTime(of date: Date, now: Date) -> String {
        let age = now.timeIntervalSince(date).rounded(.down)
        if age < 7 * 86_400 {
            let seconds = Int(max(0, age))
            switch seconds {
            case ..<60: return "\(seconds)s"
            case ..<3_600: return "\(seconds / 60)m"
            case ..<86_400: return "\(seconds / 3_600)h"
            default: return "\(seconds / 86_400)d"
            }
        }
        let day = civilDate(of: date)
        let short = "\(monthNames[day.month - 1]) \(day.day)"
        return day.year == civilDate(of: now).year ? short : "\(short), \(day.year)"
    }

    /// The UTC day of `date` as `yyyy-MM-dd`, in the export's calendar and year form
    /// (``TimelineDay/key``): `"2018-12-08"`, `"-0195-01-13"`, `"+10000-01-01"`.
    ///
    /// ```swift
    /// TimelineFormat.dayKey(of: Date(timeIntervalSince1970: 0)) // "1970-01-01"
    /// ```
    public static func dayKey(of date: Date) -> String { TimelineDay(date).key }

    /// The UTC day of `date` as a section title, `"Saturday, Dec 8"`, with the year when it is
    /// not `now`'s year (`"Friday, Dec 8, 2017"`; astronomical years: `"Monday, Jan 13, -195"`).
    ///
    /// ```swift
    /// TimelineFormat.dayTitle(of: posted, now: posted) // "Saturday, Dec 8"
    /// ```
    public static func dayTitle(of date: Date, now: Date) -> String {
        let day = civilDate(of: date)
        let title = "\(weekdayNames[day.weekday]), \(monthNames[day.month - 1]) \(day.day)"
        return day.year == civilDate(of: now).year ? title : "\(title), \(day.year)"
    }

    /// The UTC day holding `date` (``TimelineDay`` says what a date without a day gets).
    static func civilDate(of date: Date) -> ISO8601.CivilDate {
        ISO8601.CivilDate(daysSince1970: TimelineDay(date).daysSince1970)
    }
}
