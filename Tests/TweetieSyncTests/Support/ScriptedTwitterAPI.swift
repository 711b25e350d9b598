import Foundation
@testable import TweetieSync

/// A TwitterAPI test double: serves its `tweets` by cursor (newest id first, `pageSize` at most)
/// like Twitter, or everything on every call (`ignoresCursor`, like the book's mock); records
/// every request; can fail the next calls.
actor ScriptedTwitterAPI: TwitterAPI {
    enum Request: Equatable, Sendable {
        case list(ListIdentifier, TimelineCursor)
        case user(String, TimelineCursor)
        case members(ListIdentifier)
    }

    var tweets: [Tweet]
    var users: [User]
    var pageSize: Int
    var ignoresCursor: Bool
    private var failures: [TwitterAPIError] = []
    private(set) var requests: [Request] = []

    init(tweets: [Tweet] = [], users: [User] = [], pageSize: Int = 20, ignoresCursor: Bool = false) {
        self.tweets = tweets
        self.users = users
        self.pageSize = pageSize
        self.ignoresCursor = ignoresCursor
    }

    func add(_ new: [Tweet]) { tweets += new }
    func failNext(_ count: Int, with error: TwitterAPIError = .transport(endpoint: "lists/statuses.json", reason: "The network connection was lost.")) {
        failures += Array(repeating: error, count: count)
    }

    var timelineCursors: [TimelineCursor] {
        requests.compactMap {
            switch $0 {
            case .list(_, let cursor), .user(_, let cursor): cursor
            case .members: nil
            }
        }
    }

    private func serve(_ cursor: TimelineCursor, include: (Tweet) -> Bool) throws -> TimelinePage {
        if !failures.isEmpty { throw failures.removeFirst() }
        let matching = tweets.filter(include).sorted { $0.id > $1.id }
        if ignoresCursor { return TimelinePage(tweets: matching) }
        return TimelinePage(tweets: Array(matching.filter { cursor.contains($0.id) }.prefix(pageSize)))
    }

    func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage {
        requests.append(.list(list, cursor))
        return try serve(cursor) { _ in true }
    }

    func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage {
        requests.append(.user(username, cursor))
        return try serve(cursor) { $0.username == username }
    }

    func members(of list: ListIdentifier) async throws -> MembersPage {
        requests.append(.members(list))
        if !failures.isEmpty { throw failures.removeFirst() }
        return MembersPage(users: users)
    }
}
