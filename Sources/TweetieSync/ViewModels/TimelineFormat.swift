import Foundation

/// The timeline's text formats, all in UTC with English names (stable across machines).
///
/// ```swift
/// let created = Date(timeIntervalSince1970: 1_544_258_835)            // 2018-12-08 08:47:15 UTC
/// print(TimelineFormat.relativeTime(of: created, now: created + 300)) // "5m"
/// print(TimelineFormat.dayKey(of: created))                           // "2018-12-08"
/// ```
public enum TimelineFormat {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// How long ago `date` was, relative to `now`: seconds (`"42s"`, `"0s"` for a future date),
    /// minutes (`"5m"`), hours (`"3h"`), days up to six (`"2d"`), then the date (`"Dec 8"`,
    /// with the year when it is not `now`'s year: `"Dec 8, 2017"`). Units are truncated.
    ///
    /// ```swift
    /// TimelineFormat.relativeTime(of: posted, now: posted + 3 * 3600) // "3h"
    /// ```
    public static func relativeTime(of date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        switch seconds {
        case ..<60: return "\(max(0, seconds))s"
        case ..<3_600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3_600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        default:
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let short = "\(monthNames[parts.month! - 1]) \(parts.day!)"
            return parts.year == calendar.component(.year, from: now) ? short : "\(short), \(parts.year!)"
        }
    }

    /// The UTC day of `date` as `yyyy-MM-dd`.
    ///
    /// ```swift
    /// TimelineFormat.dayKey(of: Date(timeIntervalSince1970: 0)) // "1970-01-01"
    /// ```
    public static func dayKey(of date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The UTC day of `date` as a section title, `"Saturday, Dec 8"`, with the year when it is
    /// not `now`'s year (`"Friday, Dec 8, 2017"`).
    ///
    /// ```swift
    /// TimelineFormat.dayTitle(of: posted, now: posted) // "Saturday, Dec 8"
    /// ```
    public static func dayTitle(of date: Date, now: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let title = "\(weekdayNames[parts.weekday! - 1]), \(monthNames[parts.month! - 1]) \(parts.day!)"
        return parts.year == calendar.component(.year, from: now) ? title : "\(title), \(parts.year!)"
    }
}
