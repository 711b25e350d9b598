import Foundation

/// Parses and formats Twitter API v1.1 timestamps such as `Sat Dec 08 08:47:15 +0000 2018`.
///
/// A hand-written, locale-independent parser (the format's English names are fixed, as with a
/// POSIX-locale `DateFormatter` using `EEE MMM dd HH:mm:ss Z yyyy`). It validates every field,
/// including that the weekday agrees with the date, and honours any `±HHMM` offset.
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
        let (year, month, day) = civil(fromDays: Int(days))
        let weekday = weekday(fromDays: Int(days))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hour = secondsOfDay / 3600, minute = (secondsOfDay / 60) % 60, second = secondsOfDay % 60
        return "\(weekdays[weekday]) \(months[month - 1]) \(two(Int64(day))) "
            + "\(two(hour)):\(two(minute)):\(two(second)) +0000 \(year)"
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
        let month = monthIndex + 1
        guard day >= 1, day <= daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 61,
              offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        guard Self.weekday(fromDays: days) == weekday else { return nil }
        let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (era-based civil calendar arithmetic).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Sunday; 1970-01-01 was a Thursday.
    private static func weekday(fromDays days: Int) -> Int {
        let value = (days + 4) % 7
        return value < 0 ? value + 7 : value
    }
}
