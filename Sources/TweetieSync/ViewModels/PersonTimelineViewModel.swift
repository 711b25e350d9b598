import Foundation

/// A person's timeline screen's view model (the book's `PersonTimelineViewModel`), fixed: the
/// book appended each fetched page to the last one, so every tick piled up duplicates. Here a
/// ``TimelineFetcher`` fetches with `since_id` and ingests into the store, and ``tweets`` is a
/// live query of the store by the `author` index: each tweet appears once, newest first.
///
/// The view model does not start fetching by itself: run ``fetcher`` in a task the screen owns
/// (the person screen is reached while logged in, so the fetcher's account is authorized; the
/// `api` carries the credentials).
///
/// ```swift
/// let viewModel = PersonTimelineViewModel(username: "icanzilb", api: api, store: store)
/// let fetching = Task { await viewModel.fetcher.run() }
/// for try await title in viewModel.title { navigationTitle = title }
/// ```
public final class PersonTimelineViewModel: Sendable {
    /// The person's handle without `@`.
    ///
    /// ```swift
    /// print(viewModel.username) // "icanzilb"
    /// ```
    public let username: String
    /// The source of tweets.
    ///
    /// ```swift
    /// let api = viewModel.api
    /// ```
    public let api: any TwitterAPI
    /// Where tweets are stored and read from.
    ///
    /// ```swift
    /// let store = viewModel.store
    /// ```
    public let store: Store
    /// Keeps the person's tweets in the store up to date; run it to fetch.
    ///
    /// ```swift
    /// Task { await viewModel.fetcher.run() }
    /// ```
    public let fetcher: TimelineFetcher

    /// The title shown before any tweet of the person is stored.
    ///
    /// ```swift
    /// print(PersonTimelineViewModel.noneFoundTitle) // "None found"
    /// ```
    public static let noneFoundTitle = "None found"

    /// Creates the view model.
    ///
    /// ```swift
    /// let viewModel = PersonTimelineViewModel(username: "fpillet", api: api, store: store, period: .seconds(60))
    /// ```
    ///
    /// - Parameters:
    ///   - username: the person whose tweets are shown.
    ///   - api: the source of tweets.
    ///   - store: the store the timeline is read from and written to.
    ///   - reachability: gates fetching; defaults to ``InterfaceReachability``.
    ///   - clock: the fetcher's clock (tests inject a manual one).
    ///   - period: the fetcher's period.
    public init(username: String, api: any TwitterAPI, store: Store, reachability: any Reachability = InterfaceReachability(),
                clock: any Clock<Duration> = ContinuousClock(), period: Duration = .seconds(30)) {
        self.username = username
        self.api = api
        self.store = store
        fetcher = TimelineFetcher(username: username, api: api, store: store, account: .authorized(token: ""),
                                  reachability: reachability, clock: clock, period: period)
    }

    /// The query behind ``tweets``: the stored tweets by this person (case-insensitive), newest first.
    ///
    /// ```swift
    /// let stored = try store.read { try $0.fetch(viewModel.query) }
    /// ```
    public var query: Query<Tweet> { TimelineTarget.user(username).storedTweets }

    /// The person's stored tweets, newest first, without duplicates: the current list first,
    /// then the new list after each change.
    ///
    /// ```swift
    /// for try await tweets in viewModel.tweets { table.show(tweets) }
    /// ```
    public var tweets: LiveValues<Tweet, [Tweet]> {
        LiveValues(store.observe(query)) { Array($0.results) }
    }

    /// The person's stored tweets as table-ready sections, newest first: in one section `all`
    /// (`.none`, the default) or by UTC day (`.day`), relative times against `now()` per delivery,
    /// with the sectioned changeset from the previous delivery.
    ///
    /// ```swift
    /// for try await update in viewModel.sections(.day) { table.apply(update.changeset, sections: update.sections) }
    /// ```
    public func sections(_ sections: FeedSectioning = .none, now: @escaping @Sendable () -> Date = Date.init) -> TimelineUpdates {
        Self.tweets(of: username, in: store, sections: sections, now: now)
    }

    /// The person's sections without a view model (no fetcher): ``sections(_:now:)`` of the
    /// stored tweets by `username` in `store`, the newest `limit` only when given;
    /// ``ChangeFeed/person(_:store:sections:limit:now:)`` serializes it.
    ///
    /// ```swift
    /// let updates = PersonTimelineViewModel.tweets(of: "icanzilb", in: store, sections: .none, now: Date.init)
    /// ```
    public static func tweets(of username: String, in store: Store, sections: FeedSectioning, limit: Int? = nil,
                              now: @escaping @Sendable () -> Date) -> TimelineUpdates {
        TimelineUpdates.timeline(TimelineTarget.user(username).storedTweets, in: store, sections: sections, limit: limit, now: now)
    }

    /// `"None found"` while no tweet of the person is stored, then `"@username"`; repeated
    /// values are not delivered.
    ///
    /// ```swift
    /// for try await title in viewModel.title { navigationItem.title = title }
    /// ```
    public var title: LiveValues<Tweet, String> {
        let handle = "@" + username
        return LiveValues(store.observe(query.limit(1))) { $0.results.isEmpty ? Self.noneFoundTitle : handle }
    }
}
