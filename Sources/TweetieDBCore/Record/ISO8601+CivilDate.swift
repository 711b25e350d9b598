import Foundation

extension ISO8601 {
    /// A UTC day of the proleptic Gregorian calendar, the calendar of the export's dates: what a
    /// date's text says before its `T`, and what a day-sectioned feed keys its sections by.
    ///
    /// Rules: years are astronomical (year 0 is 1 BC, year -1 is 2 BC) and unbounded, leap years
    /// are the Gregorian ones all the way back, and days are counted from 1970-01-01 — never
    /// through Foundation's `Calendar`, whose Gregorian calendar switches to the Julian one
    /// before October 1582 and counts years by era. ``text`` is the export's own date text:
    /// `2018-12-08`; years outside 0000…9999 in ISO 8601's expanded form, a sign and at least
    /// four digits (`-0195-01-13`, `+10000-01-01`).
    ///
    /// ```swift
    /// let day = ISO8601.CivilDate(daysSince1970: 17_873)
    /// print(day.text, day.weekday)                                          // "2018-12-08 6" (a Saturday)
    /// print(ISO8601.CivilDate(year: 1000, month: 1, day: 1)!.daysSince1970) // -354_285
    /// ```
    public struct CivilDate: Hashable, Sendable {
        /// The astronomical year: 0 is 1 BC.
        public let year: Int
        /// 1…12.
        public let month: Int
        /// 1…31.
        public let day: Int

        /// The day `days` after 1970-01-01 (before it when negative).
        ///
        /// ```swift
        /// ISO8601.CivilDate(daysSince1970: -1).text   // "1969-12-31"
        /// ```
        public init(daysSince1970 days: Int) {
            // Howard Hinnant's civil_from_days: 400-year eras of 146,097 days, years from March.
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let shiftedMonth = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
            month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }

        /// The UTC day that holds `date`, or nil when `date` has no text (`hasText(_:)`:
        /// not finite, or more than about 292 million years from 1970).
        ///
        /// ```swift
        /// ISO8601.CivilDate(Date(timeIntervalSince1970: 1_544_258_835))?.text   // "2018-12-08"
        /// ```
        public init?(_ date: Date) {
            guard ISO8601.hasText(date) else { return nil }
            self.init(daysSince1970: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        }

        /// The date `year`-`month`-`day`, or nil when there is no such date (a month outside
        /// 1…12, a day outside its month: `2019-02-29`).
        ///
        /// ```swift
        /// ISO8601.CivilDate(year: 2018, month: 12, day: 8)?.daysSince1970   // 17_873
        /// ```
        public init?(year: Int, month: Int, day: Int) {
            guard (1...12).contains(month), day >= 1, day <= ISO8601.days(inMonth: month, of: year) else { return nil }
            self.year = year
            self.month = month
            self.day = day
        }

        /// Days from 1970-01-01 to this date (negative before it).
        public var daysSince1970: Int { ISO8601.daysSince1970(year: year, month: month, day: day) }

        /// 0 for Sunday … 6 for Saturday.
        public var weekday: Int {
            // 1970-01-01 was a Thursday (4).
            let remainder = (daysSince1970 + 4) % 7
            return remainder < 0 ? remainder + 7 : remainder
        }

        /// `YYYY-MM-DD`, the year in the export's form (``ISO8601/yearText(_:)``).
        public var text: String {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(ISO8601.yearText(year))-\(two(month))-\(two(day))"
        }
    }

    /// `year` as the export writes it: four digits for 0000…9999, otherwise ISO 8601's expanded
    /// form, a sign and at least four digits (`-0195`, `+10000`).
    public static func yearText(_ year: Int) -> String {
        let digits = String(year.magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return (0...9999).contains(year) ? padded : (year < 0 ? "-" : "+") + padded
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` in the proleptic Gregorian calendar (Howard
    /// Hinnant's days_from_civil, era by era), for a date that exists.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` (1…12) of `year` has.
    static func days(inMonth month: Int, of year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
