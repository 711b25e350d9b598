import Foundation
import Hummingbird
import HummingbirdCore
import TweetieSync

/// A feed request, parsed and checked: `/feeds/list`, `/feeds/person/{username}`, `/feeds/people`
/// with `?sections=day|none&moves=1|0&limit=N&after=POSITION`.
///
/// Defaults as `tweetie-db feed`: `list` by day, `person` and `people` in one section, moves on;
/// unlike it, every served feed is a window, of ``defaultLimit`` rows unless `limit` asks for up
/// to ``maximumLimit``: a million-row timeline is never sent, nor held by a page, whole.
/// `people` takes `sections=none` only. Every parameter and `Last-Event-ID` is checked, whatever
/// else the request carries: an unknown, repeated or malformed one is an error, even when another
/// makes it moot (`Last-Event-ID` wins over `?after=`).
struct FeedRequest: Sendable {
    /// Why a request was refused.
    enum Problem: Error {
        case notFound(String)
        case badRequest(String)
    }

    /// The window of a feed whose request names no `limit`: a first screen.
    static let defaultLimit = 100
    /// The largest `limit` a request may ask for.
    static let maximumLimit = 10_000

    var spec: FeedSpec
    /// Resume after this position (`Last-Event-ID`, else `?after=`).
    var after: ChangeLogPosition?
    var acceptsEvents: Bool
    var ifNoneMatch: String?

    static func parse(path: String, query: FlatDictionary<Substring, Substring>, lastEventID: String?, acceptsEvents: Bool,
                      ifNoneMatch: String?) -> Result<FeedRequest, Problem> {
        let parts = path.dropFirst("/feeds/".count).split(separator: "/", omittingEmptySubsequences: false)
        let kind: FeedSpec.Kind
        switch (parts.first, parts.count) {
        case ("list", 1): kind = .list
        case ("people", 1): kind = .people
        case ("person", 2):
            guard let username = parts[1].removingPercentEncoding, isUsername(username) else {
                return .failure(.badRequest("'\(parts[1])' is not a username: 1 to 50 letters, digits or underscores"))
            }
            kind = .person(username)
        default:
            return .failure(.notFound("no such feed: \(path) (there are /feeds/list, /feeds/person/{username}, /feeds/people)"))
        }
        var values: [String: String] = [:]
        for (name, value) in query {
            guard ["sections", "moves", "limit", "after"].contains(name) else {
                return .failure(.badRequest("unknown parameter '\(name)' (there are sections, moves, limit, after)"))
            }
            guard values.updateValue(String(value), forKey: String(name)) == nil else {
                return .failure(.badRequest("parameter '\(name)' is given more than once"))
            }
        }
        let sections: FeedSectioning
        switch (values["sections"], kind) {
        case (nil, .list): sections = .day
        case (nil, _): sections = .none
        case ("day", .people): return .failure(.badRequest("the people feed has one section: sections=none only"))
        case (let value?, _):
            guard let parsed = FeedSectioning(rawValue: value) else {
                return .failure(.badRequest("sections must be day or none, not '\(value)'"))
            }
            sections = parsed
        }
        let moves: Bool
        switch values["moves"] {
        case nil, "1": moves = true
        case "0": moves = false
        case let value?: return .failure(.badRequest("moves must be 1 or 0, not '\(value)'"))
        }
        var limit = defaultLimit
        if let value = values["limit"] {
            // Digits only: Int("+5") would pass, and a limit is written as a plain number.
            guard !value.isEmpty, value.utf8.count <= 6, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let parsed = Int(value), (1...maximumLimit).contains(parsed) else {
                return .failure(.badRequest("limit must be a whole number from 1 to \(maximumLimit), not '\(value)'"))
            }
            limit = parsed
        }
        // Both sources are checked, whichever is used: a malformed `after` is refused even when a
        // `Last-Event-ID` (which wins) comes with it.
        var after: ChangeLogPosition?
        for (name, text) in [("Last-Event-ID", lastEventID), ("after", values["after"])] {
            guard let text else { continue }
            guard let position = resumePosition(text) else {
                return .failure(.badRequest("\(name) must be \(resumePositionForm), not '\(text)'"))
            }
            after = after ?? position
        }
        return .success(FeedRequest(spec: FeedSpec(kind: kind, sections: sections, moves: moves, limit: limit), after: after,
                                    acceptsEvents: acceptsEvents, ifNoneMatch: ifNoneMatch))
    }

    /// What a resume position (`Last-Event-ID`, `?after=`) is, for error messages.
    static let resumePositionForm = "a feed position (a message's id: SEQUENCE.COMMITID, the commit id as 16 lowercase hexadecimal digits)"

    /// The resume position `text` names, or `nil` when it is not one (see ``resumePositionForm``).
    static func resumePosition(_ text: String) -> ChangeLogPosition? {
        ChangeLogPosition(text)
    }

    static func isUsername(_ text: String) -> Bool {
        (1...50).contains(text.utf8.count) && text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The `ETag` of a snapshot at `position` (with its commit id: after a restore, the same
    /// sequence is another snapshot).
    static func etag(_ position: ChangeLogPosition) -> String { "\"\(position)\"" }

    /// Whether `If-None-Match` names the snapshot at `position` (or `*`).
    func matches(etagOf position: ChangeLogPosition) -> Bool {
        guard let ifNoneMatch else { return false }
        let tag = Self.etag(position)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
