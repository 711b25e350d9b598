import Foundation

/// The JSON form TweetieDB uses for records in exports, the CLI and change feeds: sorted keys,
/// unescaped slashes, dates as ISO 8601 UTC with milliseconds (`2018-12-08T08:47:15.000Z`).
///
/// ```swift
/// let data = try RecordJSON.encoder().encode(tweet)
/// let back = try RecordJSON.decoder().decode(Tweet.self, from: data)
/// ```
public enum RecordJSON {
    /// A `JSONEncoder` configured for TweetieDB's JSON form.
    ///
    /// ```swift
    /// let encoder = RecordJSON.encoder()
    /// ```
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601WithFractionalSeconds
        return encoder
    }

    /// A `JSONDecoder` that reads TweetieDB's JSON form (ISO 8601 dates with or without fractions).
    ///
    /// ```swift
    /// let decoder = RecordJSON.decoder()
    /// ```
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601WithFractionalSeconds
        return decoder
    }

    /// Formats a date the way record JSON does. The date must be finite and within about 292
    /// million years of 1970 (no ISO 8601 text exists otherwise; encoding such a date in a
    /// record is an `EncodingError`).
    ///
    /// ```swift
    /// print(RecordJSON.string(from: Date())) // 2026-11-21T23:59:59.123Z
    /// ```
    public static func string(from date: Date) -> String { ISO8601.string(from: date) }

    /// Whether `date` has a record JSON text: it is finite and within about 292 million years of
    /// 1970. Check it before ``string(from:)`` when the date comes from stored data you do not
    /// control (a record written through the Swift API may hold any `Double`); export refuses such
    /// a record, naming its key.
    ///
    /// ```swift
    /// let shown = RecordJSON.hasText(tweet.created) ? RecordJSON.string(from: tweet.created) : "(no date)"
    /// ```
    public static func hasText(_ date: Date) -> Bool { ISO8601.hasText(date) }

    /// Parses an ISO 8601 date (with or without fractional seconds, with a zone).
    ///
    /// ```swift
    /// let date = RecordJSON.date(from: "2018-12-08T08:47:15Z")
    /// ```
    public static func date(from text: String) -> Date? { ISO8601.date(from: text) }
}
