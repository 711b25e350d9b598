import Foundation

extension JSONEncoder.DateEncodingStrategy {
    /// ISO 8601 with milliseconds, so that dates survive an export/import round trip. A date with
    /// no such text (``ISO8601/hasText(_:)``) is an `EncodingError.invalidValue`.
    static let iso8601WithFractionalSeconds = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        guard ISO8601.hasText(date) else {
            // The value is the number, not the `Date`: describing an infinite `Date` traps.
            throw EncodingError.invalidValue(date.timeIntervalSince1970, EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "the date \(date.timeIntervalSince1970) s from 1970 has no ISO 8601 text (it is not finite, or more than 292 million years away)"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(ISO8601.string(from: date))
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// Accepts ISO 8601 with or without fractional seconds.
    static let iso8601WithFractionalSeconds = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date (like 2018-12-08T08:47:15.000Z)")
        }
        return date
    }
}

/// ISO 8601 in UTC with millisecond precision (`2018-12-08T08:47:15.123Z`), computed from whole
/// milliseconds so that formatting a parsed date gives back the same text (exact round trips).
/// Public for its calendar (``CivilDate``, ``yearText(_:)``), which day sections share.
public enum ISO8601 {
    /// Whether `date` has a text: it is finite and within ±2^63 milliseconds of 1970 (about
    /// ±292 million years). ``string(from:)`` is defined only for those.
    static func hasText(_ date: Date) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return milliseconds.isFinite && milliseconds.magnitude < 9.2e18
    }

    /// The text of `date`, which must have one (``hasText(_:)``).
    static func string(from date: Date) -> String {
        precondition(hasText(date), "ISO8601.string(from:): \(date.timeIntervalSince1970) s from 1970 has no ISO 8601 text")
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(totalMilliseconds >= 0 ? totalMilliseconds / 1000 : (totalMilliseconds - 999) / 1000)
        let milliseconds = Int(totalMilliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(yearText(Int(parts.tm_year) + 1900))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)` in the proleptic Gregorian
    /// calendar, the calendar ``string(from:)`` (gmtime) writes: every date it writes reads back
    /// unchanged, including dates before the Gregorian reform of 1582 and, in ISO 8601's expanded
    /// form (`-0195-01-13T…`, `+10000-01-01T…`: a sign and at least 4 digits), years outside
    /// 0000…9999 — only those: each date has one text.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    /// ``date(from:)`` for the text's UTF-8 bytes (an import reads dates straight from the line).
    static func date(fromUTF8 b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let first = b.first, first == 0x2B || first == 0x2D else { return parse(b, expandedYear: nil) }
        var end = 1
        while end < b.count, b[end] >= 0x30, b[end] <= 0x39 { end += 1 }
        guard end - 1 >= 4, end - 1 <= 9 else { return nil }
        let year = (first == 0x2D ? -1 : 1) * b[1..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard !(0...9999).contains(year) else { return nil }
        // Read the rest at the offsets of a 4-digit year.
        let rest = [0x30, 0x30, 0x30, 0x30] + b[end...]
        return rest.withUnsafeBufferPointer { parse($0, expandedYear: year) }
    }

    /// The date in `b`, whose year is `expandedYear` when given (its 4 digits then stand in).
    private static func parse(_ b: UnsafeBufferPointer<UInt8>, expandedYear: Int?) -> Date? {
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for i in start..<(start + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
              let fourDigitYear = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let year = expandedYear ?? fourDigitYear
        guard day >= 1, day <= days(inMonth: month, of: year) else { return nil }
        var position = 19
        var fraction = 0.0
        if position < b.count, b[position] == 0x2E {
            position += 1
            var scale = 0.1
            let start = position
            while position < b.count, b[position] >= 0x30, b[position] <= 0x39 {
                fraction += Double(b[position] - 0x30) * scale
                scale /= 10
                position += 1
            }
            guard position > start else { return nil }
        }
        guard position < b.count else { return nil }
        var offset = 0
        if b[position] == 0x5A {
            position += 1
        } else if b[position] == 0x2B || b[position] == 0x2D {
            let sign = b[position] == 0x2D ? -1 : 1
            guard let hours = digits(position + 1, 2), hours < 24 else { return nil }
            position += 3
            if position < b.count, b[position] == 0x3A { position += 1 }
            guard let minutes = digits(position, 2), minutes < 60 else { return nil }
            position += 2
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == b.count else { return nil }
        let dayNumber = daysSince1970(year: year, month: month, day: day)
        let seconds = Double(dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        // Snap to whole milliseconds, the export's precision.
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }
}
