import Foundation

/// A deterministic, in-memory Twitter whose list timeline grows, changes and loses tweets over time.
///
/// Everything derives from `seed` through ``SplitMix64`` (no dictionary or set iteration, no
/// clock), so two sources with the same seed that receive the same calls return the same pages
/// in every process. Time advances **only** through ``advance(steps:)``; requests never change
/// the world. At creation the list already holds `initialTweets` tweets spread over the
/// `historyDays` days before `origin`. Each step moves the clock forward 10–180 minutes and:
/// posts 0–3 new tweets (some replies, some retweets), edits 1–3 existing tweets (retweet and
/// favorite counts grow; one edit in five also changes the text), and deletes one tweet with
/// probability 30 %. Retweets have no ``Tweet/lang`` (like statuses whose language Twitter could
/// not tell), so recorded caches also hold statuses without `lang`.
///
/// Ids are Twitter-style snowflakes derived from the creation date, so they grow with time.
/// A timeline request returns the statuses inside the cursor, newest first, at most
/// `pageSize` (list) or 100 (user timeline). When the cursor has a `sinceId`, the page also
/// carries, after the new tweets, every tweet with `id <= sinceId` edited at or after the
/// creation time of `sinceId` (so a refresh still delivers edits), and in ``TimelinePage/deletedIds``
/// every tweet deleted at or after that time. A list other than `list`, or an unknown user,
/// throws ``TwitterAPIError/httpStatus(endpoint:code:message:)`` with 404, as Twitter does.
///
/// ```swift
/// let source = SimulatedTwitterSource(seed: 7)
/// let first = try await source.timeline(of: source.list, cursor: TimelineCursor())
/// await source.advance(steps: 3)
/// let refresh = try await source.timeline(of: source.list,
///                                         cursor: TimelineCursor(sinceId: first.tweets[0].id))
/// ```
public actor SimulatedTwitterSource: TwitterAPI {
    /// The one list this source serves.
    ///
    /// ```swift
    /// let page = try await source.timeline(of: source.list, cursor: TimelineCursor())
    /// ```
    public nonisolated let list: ListIdentifier
    /// The most statuses a list timeline page returns (like Twitter's `count`, default 20).
    ///
    /// ```swift
    /// let source = SimulatedTwitterSource(seed: 1, pageSize: 50)
    /// ```
    public nonisolated let pageSize: Int

    private var world: SimulatedWorld

    private static let userTimelineCount = 100

    /// How many steps ``advance(steps:)`` has taken so far.
    ///
    /// ```swift
    /// let step = await source.step
    /// ```
    public var step: Int { world.step }

    /// The simulated current time.
    ///
    /// ```swift
    /// let now = await source.now
    /// ```
    public var now: Date { world.now }

    /// Creates a world from a seed.
    ///
    /// ```swift
    /// let source = SimulatedTwitterSource(seed: 42)
    /// ```
    ///
    /// - Parameters:
    ///   - seed: The only source of randomness.
    ///   - list: The list served; defaults to `icanzilb/RxSwift` like the book.
    ///   - pageSize: The list timeline's page size.
    ///   - origin: The simulated time at step 0; defaults to 2018-12-08 09:00 UTC.
    ///   - initialTweets: How many tweets exist at step 0.
    ///   - historyDays: Over how many days before `origin` those tweets are spread.
    public init(
        seed: UInt64,
        list: ListIdentifier = .rxSwift,
        pageSize: Int = 20,
        origin: Date = Date(timeIntervalSince1970: 1_544_259_600),
        initialTweets: Int = 60,
        historyDays: Int = 5
    ) {
        precondition(pageSize > 0, "pageSize must be positive")
        self.list = list
        self.pageSize = pageSize
        world = SimulatedWorld(seed: seed, origin: origin, initialTweets: initialTweets, historyDays: historyDays)
    }

    /// Moves simulated time forward by `steps` steps, posting, editing and deleting tweets.
    ///
    /// ```swift
    /// await source.advance(steps: 5)
    /// ```
    public func advance(steps: Int = 1) {
        world.advance(steps: steps)
    }

    /// Every tweet that exists now, newest first (for inspection and tests).
    ///
    /// ```swift
    /// let all = await source.currentTweets
    /// ```
    public var currentTweets: [Tweet] { world.currentTweets }

    /// Ids of every tweet deleted so far, in deletion order.
    ///
    /// ```swift
    /// let gone = await source.deletedTweetIds
    /// ```
    public var deletedTweetIds: [Int64] { world.deletedTweetIds }

    /// The list's members: every simulated author.
    ///
    /// ```swift
    /// let members = try await source.members(of: source.list).users
    /// ```
    public func members(of list: ListIdentifier) async throws -> MembersPage {
        guard list == self.list else { throw Self.notFound("lists/members.json") }
        return MembersPage(users: SimulatedContent.authors.map { author in
            User(id: author.id, name: author.name, username: author.handle, about: author.about,
                 url: author.url, imageURL: SimulatedContent.imageURL(for: author))
        })
    }

    /// The list timeline within `cursor`, plus edits and deletions since `cursor.sinceId`.
    ///
    /// ```swift
    /// let page = try await source.timeline(of: source.list, cursor: TimelineCursor(sinceId: newest))
    /// ```
    public func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage {
        guard list == self.list else { throw Self.notFound("lists/statuses.json") }
        return world.page(cursor: cursor, limit: pageSize) { _ in true }
    }

    /// One author's timeline within `cursor` (at most 100), plus their edits and deletions since `cursor.sinceId`.
    ///
    /// ```swift
    /// let page = try await source.timeline(of: "priyacodes", cursor: TimelineCursor())
    /// ```
    public func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage {
        guard SimulatedContent.authors.contains(where: { $0.handle == username }) else {
            throw Self.notFound("statuses/user_timeline.json")
        }
        return world.page(cursor: cursor, limit: Self.userTimelineCount) { $0.username == username }
    }

    private static func notFound(_ endpoint: String) -> TwitterAPIError {
        .httpStatus(endpoint: endpoint, code: 404, message: "Sorry, that page does not exist. (code 34)")
    }
}
