import Foundation
import TweetieSync

/// Parses an ISO 8601 date or a plain day (`2018-12-08`, taken as midnight UTC).
func parseDate(_ text: String) -> Date? {
    if let date = RecordJSON.date(from: text) { return date }
    if let day = try? Date(text + "T00:00:00Z", strategy: .iso8601) { return day }
    return nil
}
