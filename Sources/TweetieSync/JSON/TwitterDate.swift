import Foundation
import TweetieDB

/// Parses and formats Twitter API v1.1 timestamps such as `Sat Dec 08 08:47:15 +0000 2018`.
///
/// A hand-written, locale-independent parser (the format's English names are fixed, as with a
/// POSIX-locale `DateFormatter` using `EEE MMM dd HH:mm:ss Z yyyy`). It validates every field,
/// including that the weekday agrees with the date, and honours any `±HHMM` offset. Dates are
/// days of the export's calendar (`ISO8601.CivilDate`, proleptic Gregorian).
///
/// ```swift
/// let date = TwitterDate.parse("Sat Dec 08 08:47:15 +0000 2018")   // 2018-12-08T08:47:15Z
/// let text = TwitterDate.format(date!)                             // "Sat Dec 08 08:47:15 +0000 2018"
/// ```
public enum TwitterDate {
    private static let weekdays: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [String] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    /// Each three-letter name packed into one integer, for allocation-free comparison.
    private static let weekdayKeys: [UInt32] = weekdays.map(key)
    private static let monthKeys: [UInt32] = months.map(key)

    private static func key(_ name: String) -> UInt32 {
        name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// Parses a Twitter timestamp; `nil` when the text is not exactly in Twitter's format.
    ///
    /// ```swift
    /// TwitterDate.parse("Fri Dec 07 17:28:51 +0000 2018")   // a Date
    /// TwitterDate.parse("2018-12-07T17:28:51Z")             // nil
    /// ```
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Formats a date the way Twitter writes it, always in UTC (`+0000`).
    ///
    /// ```swift
    /// TwitterDate.format(Date(timeIntervalSince1970: 0))   // "Thu Jan 01 00:00:00 +0000 1970"
    /// ```
    public static func format(_ date: Date) -> String {
        let total = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDiv(total, 86_400)
        let secondsOfDay = total - days * 86_400
        let date = ISO8601.CivilDate(daysSince1970: Int(days))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hour = secondsOfDay / 3600, minute = (secondsOfDay / 60) % 60, second = secondsOfDay % 60
        return "\(weekdays[date.weekday]) \(months[date.month - 1]) \(two(Int64(date.day))) "
            + "\(two(hour)):\(two(minute)):\(two(second)) +0000 \(date.year)"
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // "Sat Dec 08 08:47:15 +0000 2018": fixed layout, 30 bytes.
        guard bytes.count == 30 else { return nil }
        let space = UInt8(ascii: " "), colon = UInt8(ascii: ":")
        guard bytes[3] == space, bytes[7] == space, bytes[10] == space, bytes[13] == colon, bytes[16] == colon,
              bytes[19] == space, bytes[25] == space
        else { return nil }
        func name(at start: Int, in keys: [UInt32]) -> Int? {
            let key = UInt32(bytes[start]) << 16 | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2])
            return keys.firstIndex(of: key)
        }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for offset in start..<(start + length) {
                let byte = bytes[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let weekday = name(at: 0, in: weekdayKeys),
              let monthIndex = name(at: 4, in: monthKeys),
              let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
              let second = number(17, 2), let offsetHours = number(21, 2), let offsetMinutes = number(23, 2),
              let year = number(26, 4)
        else { return nil }
        let sign: Int
        switch bytes[20] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let date = ISO8601.CivilDate(year: year, month: monthIndex + 1, day: day), hour < 24, minute < 60, second < 61,
              offsetHours < 24, offsetMinutes < 60, date.weekday == weekday
        else { return nil }
        let days = date.daysSince1970
        let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
