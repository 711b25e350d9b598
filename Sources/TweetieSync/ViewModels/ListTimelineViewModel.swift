import Foundation

/// The list timeline screen's view model (the book's `ListTimelineViewModel`): table-ready,
/// day-sectioned tweets of a list from the store, whether the user is logged in, and the
/// ``TimelineFetcher`` that keeps the store up to date.
///
/// The view model does not start fetching by itself: run ``fetcher`` (``TimelineFetcher/run()``)
/// in a task the screen owns. Account changes are forwarded to the fetcher in order; so are
/// ``setPaused(_:)`` calls.
///
/// ```swift
/// let viewModel = ListTimelineViewModel(account: .authorized(token: token), list: list, api: api, store: store)
/// let fetching = Task { await viewModel.fetcher.run() }
/// for try await update in viewModel.tweets { render(update.sections, update.changeset) }
/// fetching.cancel()
/// ```
public final class ListTimelineViewModel: Sendable {
    /// The list shown.
    ///
    /// ```swift
    /// title = viewModel.list.slug
    /// ```
    public let list: ListIdentifier
    /// The source of tweets (also used by ``fetcher``).
    ///
    /// ```swift
    /// let api = viewModel.api
    /// ```
    public let api: any TwitterAPI
    /// The store the timeline is read from and fetched into.
    ///
    /// ```swift
    /// let store = viewModel.store
    /// ```
    public let store: Store
    /// Keeps the list's tweets in the store up to date; run it to fetch.
    ///
    /// ```swift
    /// Task { await viewModel.fetcher.run() }
    /// ```
    public let fetcher: TimelineFetcher
    /// The clock for relative times (`Date.init` unless injected).
    ///
    /// ```swift
    /// print(viewModel.now())
    /// ```
    public let now: @Sendable () -> Date

    private let loggedInState = StateBroadcast<Bool>()
    private let pauseSink: AsyncStream<Bool>.Continuation
    private let forwarding: Task<Void, Never>

    /// Creates the view model with an account status that changes over time; ``loggedIn``
    /// follows it and finishes when `account` finishes. Until `account` delivers, the fetcher
    /// treats the account as unavailable.
    ///
    /// ```swift
    /// let (accounts, accountSink) = AsyncStream.makeStream(of: AccountStatus.self)
    /// let viewModel = ListTimelineViewModel(account: accounts, list: list, api: api, store: store)
    /// accountSink.yield(.authorized(token: token))
    /// ```
    ///
    /// - Parameters:
    ///   - account: the account statuses; fetching runs while the latest is authorized.
    ///   - list: the list whose timeline is shown.
    ///   - api: the source of tweets.
    ///   - store: the store the timeline is read from and written to.
    ///   - reachability: gates fetching; defaults to ``InterfaceReachability``.
    ///   - clock: the fetcher's clock (tests inject a manual one).
    ///   - period: the fetcher's period.
    ///   - now: the current time, for relative times and section titles.
    public convenience init(account: AsyncStream<AccountStatus>, list: ListIdentifier, api: any TwitterAPI, store: Store,
                reachability: any Reachability = InterfaceReachability(), clock: any Clock<Duration> = ContinuousClock(),
                period: Duration = .seconds(30), now: @escaping @Sendable () -> Date = Date.init) {
        self.init(initialAccount: .unavailable, accountUpdates: account, list: list, api: api, store: store,
                  reachability: reachability, clock: clock, period: period, now: now)
    }

    /// Creates the view model with a fixed account status: ``loggedIn`` delivers it and finishes.
    ///
    /// ```swift
    /// let viewModel = ListTimelineViewModel(account: .authorized(token: token), list: list, api: api, store: store)
    /// ```
    public convenience init(account: AccountStatus, list: ListIdentifier, api: any TwitterAPI, store: Store,
                            reachability: any Reachability = InterfaceReachability(), clock: any Clock<Duration> = ContinuousClock(),
                            period: Duration = .seconds(30), now: @escaping @Sendable () -> Date = Date.init) {
        let (updates, sink) = AsyncStream.makeStream(of: AccountStatus.self)
        sink.yield(account)
        sink.finish()
        self.init(initialAccount: account, accountUpdates: updates, list: list, api: api, store: store,
                  reachability: reachability, clock: clock, period: period, now: now)
    }

    private init(initialAccount: AccountStatus, accountUpdates: AsyncStream<AccountStatus>, list: ListIdentifier,
                 api: any TwitterAPI, store: Store, reachability: any Reachability, clock: any Clock<Duration>,
                 period: Duration, now: @escaping @Sendable () -> Date) {
        self.list = list
        self.api = api
        self.store = store
        self.now = now
        let fetcher = TimelineFetcher(list: list, api: api, store: store, account: initialAccount,
                                      reachability: reachability, clock: clock, period: period)
        self.fetcher = fetcher
        let (pauses, pauseSink) = AsyncStream.makeStream(of: Bool.self)
        self.pauseSink = pauseSink
        let loggedIn = loggedInState
        forwarding = Task {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await status in accountUpdates {
                        await fetcher.setAccount(status)
                        loggedIn.send(status.isAuthorized)
                    }
                    loggedIn.finish()
                }
                group.addTask {
                    for await paused in pauses { await fetcher.setPaused(paused) }
                }
            }
        }
    }

    deinit {
        pauseSink.finish()
        forwarding.cancel()
        loggedInState.finish()
    }

    /// Pauses or resumes fetching (the book's `paused` input); forwarded to ``fetcher`` in call order.
    ///
    /// ```swift
    /// viewModel.setPaused(true)   // the screen went away
    /// ```
    public func setPaused(_ paused: Bool) {
        pauseSink.yield(paused)
    }

    /// Whether the user is logged in: `true` for an authorized account, `false` for an
    /// unavailable one; a new subscriber first gets the current value. Finishes when the account
    /// updates finish.
    ///
    /// ```swift
    /// for await loggedIn in viewModel.loggedIn { messageView.isHidden = loggedIn }
    /// ```
    public var loggedIn: AsyncStream<Bool> { loggedInState.updates() }

    /// The query behind ``tweets``: the stored tweets whose `lists` contain the list's key,
    /// newest first.
    ///
    /// ```swift
    /// let stored = try store.read { try $0.fetch(viewModel.query) }
    /// ```
    public var query: Query<Tweet> { TimelineTarget.list(list).storedTweets }

    /// The list's tweets as table-ready sections, one per UTC day, newest day first, rows newest
    /// first, with the sectioned changeset from the previous delivery (see ``TimelineUpdate`` for
    /// the relative-time caveat). Only a change of a shown field (text, name, username, avatar,
    /// date) counts as a row modification; new counts or list memberships do not.
    ///
    /// ```swift
    /// for try await update in viewModel.tweets { render(update) }
    /// ```
    public var tweets: TimelineUpdates {
        Self.tweets(of: list, in: store, sections: .day, now: now)
    }

    /// The list timeline's sections without a view model (no fetcher, no account): the stored
    /// tweets of `list` in `store`, newest first, by UTC day (`.day`, newest day first) or in one
    /// section `all` (`.none`), relative times against `now()` per delivery; with a `limit`, the
    /// newest `limit` tweets only (a window that ``SectionedUpdates/Iterator/setLimit(_:)`` grows).
    /// ``tweets`` is this with `.day`; ``ChangeFeed/list(_:store:sections:limit:now:)`` serializes it.
    ///
    /// ```swift
    /// for try await update in ListTimelineViewModel.tweets(of: list, in: store, sections: .none, now: Date.init) {
    ///     print(update.rowCount, "tweets")
    /// }
    /// ```
    public static func tweets(of list: ListIdentifier, in store: Store, sections: FeedSectioning, limit: Int? = nil,
                              now: @escaping @Sendable () -> Date) -> TimelineUpdates {
        TimelineUpdates.timeline(TimelineTarget.list(list).storedTweets, in: store, sections: sections, limit: limit, now: now)
    }
}
