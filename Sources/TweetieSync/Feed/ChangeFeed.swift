import Foundation

/// A live change feed: a view model's sections (``SectionedUpdates``) serialized as
/// ``FeedMessage``s — what `tweetie-db feed` prints and what a server streams to its renderers.
///
/// A feed's messages start with a snapshot of every section at a change-log sequence, then one
/// change per delivery (a change may carry several commits, so sequences may skip; they strictly
/// increase within one stream). A renderer that applied every message up to sequence `N`
/// resumes with ``messages(after:moves:)``.
///
/// Relative times are computed against the `now` the feed was made with, fixed for its
/// lifetime, so that a renderer's applied copy equals a fresh snapshot; resume with a feed made
/// with the same `now`.
///
/// ```swift
/// let feed = ChangeFeed.list(ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store, now: Date())
/// var state = FeedState<TimelineRow>()
/// for try await message in feed.messages() {
///     try state.apply(message)                        // a renderer's copy of the sections
///     send(try RecordJSON.encoder().encode(message))  // or one NDJSON line to a client
/// }
/// ```
public struct ChangeFeed<Row: Codable & Sendable & Hashable>: Sendable {
    /// The feed's name, carried by every message: `list icanzilb/RxSwift`, `person icanzilb`,
    /// `people icanzilb/RxSwift`.
    ///
    /// ```swift
    /// print(feed.name)
    /// ```
    public let name: String
    /// The view model's live sections the messages serialize.
    ///
    /// ```swift
    /// for try await update in feed.updates { print(update.rowCount) }
    /// ```
    public let updates: SectionedUpdates<Row>

    /// A feed named `name` serializing `updates`.
    ///
    /// ```swift
    /// let feed = ChangeFeed(name: "list icanzilb/RxSwift", updates: viewModel.tweets)
    /// ```
    public init(name: String, updates: SectionedUpdates<Row>) {
        self.name = name
        self.updates = updates
    }

    /// The messages from scratch: a snapshot (`initial`), then changes, and a `reset` snapshot
    /// whenever the feed fell behind the change log. `moves: false` expresses moves as deletion +
    /// insertion.
    ///
    /// ```swift
    /// for try await message in feed.messages(moves: false) { print(message.type, message.sequence) }
    /// ```
    public func messages(moves: Bool = true) -> FeedMessages<Row> {
        FeedMessages(feed: self, moves: moves, after: nil)
    }

    /// The messages for a renderer that already applied every message of this feed up to
    /// `position` (the ``FeedMessage/position`` of its last message): nothing for the commits up
    /// to now when `position` is a point of this store's history and none of the commits since
    /// changed the feed's records (the change log still holds all of them and names none), else a
    /// `reset` snapshot of the current sections; then the changes after that, as
    /// ``messages(moves:)``. A position from another history — a database restored from an older
    /// backup and written again, or replaced by an import — or without its commit id always gets
    /// the `reset`.
    ///
    /// ```swift
    /// // The client's last applied message had position 41.5f3a9c0e12ab34cd (an HTTP client's Last-Event-ID).
    /// for try await message in feed.messages(after: ChangeLogPosition("41.5f3a9c0e12ab34cd")!) { send(message) }
    /// ```
    public func messages(after position: ChangeLogPosition, moves: Bool = true) -> FeedMessages<Row> {
        FeedMessages(feed: self, moves: moves, after: position)
    }
}

extension ChangeFeed where Row == TimelineRow {
    /// The list timeline (``ListTimelineViewModel``'s sections): the list's stored tweets, newest
    /// first, by UTC day or in one section; with a `limit`, the newest `limit` tweets (a window:
    /// every message says whether older tweets follow).
    ///
    /// ```swift
    /// let feed = ChangeFeed.list(ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store, sections: .day, limit: 100, now: Date())
    /// ```
    public static func list(_ list: ListIdentifier, store: Store, sections: FeedSectioning = .day, limit: Int? = nil, now: Date) -> ChangeFeed {
        ChangeFeed(name: "list \(list.key)", updates: ListTimelineViewModel.tweets(of: list, in: store, sections: sections, limit: limit, now: { now }))
    }

    /// A person's stored tweets, newest first (``PersonTimelineViewModel``'s sections), the newest
    /// `limit` only when given.
    ///
    /// ```swift
    /// let feed = ChangeFeed.person("icanzilb", store: store, sections: .none, now: Date())
    /// ```
    public static func person(_ username: String, store: Store, sections: FeedSectioning = .none, limit: Int? = nil, now: Date) -> ChangeFeed {
        ChangeFeed(name: "person \(username)", updates: PersonTimelineViewModel.tweets(of: username, in: store, sections: sections, limit: limit, now: { now }))
    }
}

extension ChangeFeed where Row == PersonRow {
    /// The list's stored members by username, in one section `all` (``ListPeopleViewModel``'s
    /// sections), the first `limit` only when given.
    ///
    /// ```swift
    /// let feed = ChangeFeed.people(ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store)
    /// ```
    public static func people(_ list: ListIdentifier, store: Store, limit: Int? = nil) -> ChangeFeed {
        ChangeFeed(name: "people \(list.key)", updates: ListPeopleViewModel.members(of: list, in: store, limit: limit))
    }
}
