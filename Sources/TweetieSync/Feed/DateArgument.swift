import Foundation
import TweetieDB

/// The dates the command-line tools take — `--now` of `tweetie-db feed` and of `tweetie-serve`,
/// `--since` and `--until` of `tweetie-db tweets list` — read by one parser, so that every tool
/// takes the same forms and means the same instant by them.
///
/// Rules: a value is a day, `YYYY-MM-DD` (its midnight, UTC), or a date and time in the export's
/// form, `YYYY-MM-DDTHH:MM:SS`, optional fractional seconds, then `Z` or an offset `±HH:MM`
/// (`±HHMM`); in the proleptic Gregorian calendar of the export's dates, whatever the year.
/// A year outside 0000…9999 is written as the export writes it, a sign and four to nine digits
/// (`+10000-01-01`, `-0001-12-31`: year 0 is 1 BC). Nothing else is a date: no other
/// separators, no week or ordinal dates, no missing seconds.
///
/// ```swift
/// DateArgument.parse("2018-12-08")                 // 2018-12-08T00:00:00Z
/// DateArgument.parse("-0001-12-31T12:00:00+01:00") // 11:00 UTC on the last day of 2 BC
/// DateArgument.parse("2018-12-08 10:00")           // nil
/// ```
public enum DateArgument {
    /// The accepted forms, as the options' help says them.
    public static let forms = """
        YYYY-MM-DD (midnight UTC) or YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM), like 2018-12-08 or \
        2018-12-08T08:47:15Z, in the proleptic Gregorian calendar; a year outside 0000-9999 takes \
        a sign and 4 to 9 digits (+10000-01-01, -0001-12-31)
        """

    /// The instant `text` names, or nil when it is not one of the accepted forms.
    public static func parse(_ text: String) -> Date? {
        RecordJSON.date(from: text) ?? RecordJSON.date(from: text + "T00:00:00Z")
    }

    /// The sentence for an `option` whose value `text` is not a date.
    ///
    /// ```swift
    /// throw ValidationError(DateArgument.problem(option: "--now", value: now))
    /// ```
    public static func problem(option: String, value text: String) -> String {
        "\(option) '\(text)' is not a date: write \(forms)."
    }
}
