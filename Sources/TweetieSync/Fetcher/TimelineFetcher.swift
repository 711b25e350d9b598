/// Keeps one timeline (a list's, or a user's) in the store up to date: the book's
/// `TimelineFetcher`, on Swift concurrency and TweetieDB.
///
/// ``run()`` fetches at once and then every `period`, while the account is authorized, the
/// fetcher is not paused and the reachability check passes; otherwise it reports
/// ``FetcherEvent/idle(reason:)`` and waits (a pause or account change wakes it at once; an
/// unreachable network is checked again every `period`).
///
/// **Cursor.** The book sent both `max_id` and `since_id`, so after the first page nothing new
/// ever came. Here a refresh asks only `sinceId = newest id seen`, and ``loadOlder()`` asks only
/// `maxId = oldest id seen − 1`; the first request has no bound. The ids seen start from the
/// store (the newest and oldest stored tweet of the timeline) on the first fetch, so a restart
/// does not refetch what is stored. Limitation: when more tweets were posted since the last
/// refresh than one page holds, the refresh gets the newest page and the tweets between it and
/// the previous newest are not fetched (Twitter's `since_id` pages from the top).
///
/// **Errors** never end ``run()``: each failure is reported as ``FetcherEvent/failed(_:retryIn:)``
/// and the next attempt waits `period × 2ⁿ` after the n-th consecutive failure, at most
/// `8 × period`; a success resets the backoff.
///
/// All waiting goes through the injected `clock`, so tests drive time with a manual clock.
///
/// ```swift
/// let fetcher = TimelineFetcher(list: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                               api: SimulatedTwitterSource(seed: 1), store: store,
///                               account: .authorized(token: "t"), reachability: AlwaysReachable())
/// let task = Task { await fetcher.run() }
/// for await event in fetcher.events { print(event) }
/// task.cancel()
/// ```
public actor TimelineFetcher {
    /// The timeline this fetcher keeps up to date.
    ///
    /// ```swift
    /// print(fetcher.target) // "list icanzilb/RxSwift"
    /// ```
    public nonisolated let target: TimelineTarget
    /// The time between two fetches of ``run()``.
    public nonisolated let period: Duration
    /// The source of tweets.
    ///
    /// ```swift
    /// let api = fetcher.api
    /// ```
    public nonisolated let api: any TwitterAPI
    /// Where fetched tweets are stored.
    ///
    /// ```swift
    /// let store = fetcher.store
    /// ```
    public nonisolated let store: Store
    /// The check that gates ``run()``.
    public nonisolated let reachability: any Reachability
    /// What the fetcher does: every fetch (from ``run()``, ``refresh()`` or ``loadOlder()``),
    /// every failure of ``run()``, and every time ``run()`` goes idle. Meant for one consumer;
    /// the newest 256 events are buffered. Finishes when the fetcher is released.
    ///
    /// ```swift
    /// Task { for await event in fetcher.events { log(event) } }
    /// ```
    public nonisolated let events: AsyncStream<FetcherEvent>

    private nonisolated let eventSink: AsyncStream<FetcherEvent>.Continuation
    private nonisolated let clock: any Clock<Duration>

    /// The current account status (gates ``run()``).
    ///
    /// ```swift
    /// guard await fetcher.account.isAuthorized else { return showSignIn() }
    /// ```
    public private(set) var account: AccountStatus
    /// Whether ``run()`` is paused.
    ///
    /// ```swift
    /// if await fetcher.isPaused { await fetcher.setPaused(false) }
    /// ```
    public private(set) var isPaused = false
    /// The highest tweet id fetched (or stored, at start) for this timeline.
    public private(set) var newestSeenId: Int64?
    /// The lowest tweet id of the contiguous run fetched from the top (or stored, at start).
    public private(set) var oldestSeenId: Int64?
    /// Whether ``loadOlder()`` got an empty page: there is nothing older to load.
    ///
    /// ```swift
    /// while !(await fetcher.reachedOldest) { try await fetcher.loadOlder() }
    /// ```
    public private(set) var reachedOldest = false
    /// How many attempts of ``run()`` failed in a row (0 after a success).
    ///
    /// ```swift
    /// if await fetcher.consecutiveFailures >= 3 { showOfflineBanner() }
    /// ```
    public private(set) var consecutiveFailures = 0

    private var seeded = false
    private var running = false
    private var stateVersion: UInt64 = 0
    private var sleeper: Task<Void, Never>?

    /// Creates a fetcher for a list's timeline.
    ///
    /// ```swift
    /// let fetcher = TimelineFetcher(list: list, api: TwitterHTTPClient(credentials: credentials), store: store,
    ///                               account: .authorized(token: token))
    /// ```
    ///
    /// - Parameters:
    ///   - reachability: gates ``run()``; defaults to ``InterfaceReachability``.
    ///   - clock: every wait of ``run()`` sleeps on this clock.
    ///   - period: the time between two fetches of ``run()``; must be positive.
    public init(list: ListIdentifier, api: any TwitterAPI, store: Store, account: AccountStatus,
                reachability: any Reachability = InterfaceReachability(),
                clock: any Clock<Duration> = ContinuousClock(), period: Duration = .seconds(30)) {
        self.init(target: .list(list), api: api, store: store, account: account,
                  reachability: reachability, clock: clock, period: period)
    }

    /// Creates a fetcher for one user's timeline (fetched tweets keep their stored list membership).
    ///
    /// ```swift
    /// let fetcher = TimelineFetcher(username: "icanzilb", api: api, store: store, account: .authorized(token: token))
    /// ```
    public init(username: String, api: any TwitterAPI, store: Store, account: AccountStatus,
                reachability: any Reachability = InterfaceReachability(),
                clock: any Clock<Duration> = ContinuousClock(), period: Duration = .seconds(30)) {
        self.init(target: .user(username), api: api, store: store, account: account,
                  reachability: reachability, clock: clock, period: period)
    }

    /// Creates a fetcher for `target`.
    ///
    /// ```swift
    /// let fetcher = TimelineFetcher(target: .user("fpillet"), api: api, store: store, account: .authorized(token: token))
    /// ```
    public init(target: TimelineTarget, api: any TwitterAPI, store: Store, account: AccountStatus,
                reachability: any Reachability = InterfaceReachability(),
                clock: any Clock<Duration> = ContinuousClock(), period: Duration = .seconds(30)) {
        precondition(period > .zero, "TimelineFetcher: period must be positive, got \(period)")
        self.target = target
        self.api = api
        self.store = store
        self.account = account
        self.reachability = reachability
        self.clock = clock
        self.period = period
        (events, eventSink) = AsyncStream.makeStream(of: FetcherEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    deinit {
        eventSink.finish()
    }

    /// The list, when this fetcher keeps a list's timeline.
    public nonisolated var list: ListIdentifier? {
        if case .list(let list) = target { return list }
        return nil
    }

    // MARK: Inputs

    /// Pauses or resumes ``run()`` (the book's `paused` input). Pausing does not cancel a fetch
    /// in flight; resuming fetches at once.
    ///
    /// ```swift
    /// await fetcher.setPaused(true)
    /// ```
    public func setPaused(_ paused: Bool) {
        guard paused != isPaused else { return }
        isPaused = paused
        stateChanged()
    }

    /// Changes the account status; ``run()`` goes idle for `.unavailable` and fetches at once
    /// when an account becomes authorized.
    ///
    /// ```swift
    /// await fetcher.setAccount(.unavailable)
    /// ```
    public func setAccount(_ status: AccountStatus) {
        guard status != account else { return }
        account = status
        stateChanged()
    }

    private func stateChanged() {
        stateVersion &+= 1
        sleeper?.cancel()
    }

    // MARK: Cursor

    /// Where the fetcher stands: `sinceId` is the newest id seen and `maxId` the oldest id seen
    /// minus one — the bounds of the next ``refresh()`` and ``loadOlder()`` respectively. This
    /// is state, not a request: each request carries only one of the two (see
    /// ``refreshCursor`` and ``olderCursor``).
    public var cursor: TimelineCursor {
        TimelineCursor(maxId: oldestSeenId.map { $0 - 1 }, sinceId: newestSeenId)
    }

    /// The request the next ``refresh()`` sends: only `sinceId` (none before anything was seen).
    public var refreshCursor: TimelineCursor {
        TimelineCursor(sinceId: newestSeenId)
    }

    /// The request the next ``loadOlder()`` sends: only `maxId`, or `nil` when nothing was seen
    /// yet (then ``loadOlder()`` fetches the newest page).
    public var olderCursor: TimelineCursor? {
        oldestSeenId.map { TimelineCursor(maxId: $0 - 1) }
    }

    /// Reads the newest and oldest stored tweet ids of the timeline into the cursor (once; later
    /// calls do nothing). Every fetch calls it first; call it yourself to show ``cursor`` early.
    ///
    /// ```swift
    /// try await fetcher.seedFromStore()
    /// let position = await fetcher.cursor  // the stored timeline's bounds, before any request
    /// ```
    public func seedFromStore() async throws {
        guard !seeded else { return }
        let bounds = try await target.storedIdBounds(in: store)
        guard !seeded else { return }
        seeded = true
        if let bounds { noteSeen(newest: bounds.newest, oldest: bounds.oldest) }
    }

    private func noteSeen(newest: Int64?, oldest: Int64?) {
        if let newest { newestSeenId = max(newestSeenId ?? newest, newest) }
        if let oldest { oldestSeenId = min(oldestSeenId ?? oldest, oldest) }
    }

    // MARK: Fetching

    /// Fetches the tweets newer than the newest seen (`sinceId` only; the newest page when nothing
    /// was seen), ingests them, and reports ``FetcherEvent/fetched(_:cursor:)``.
    ///
    /// Tweets older than `sinceId` that a source sends along (edits) are ingested but do not move
    /// the cursor.
    ///
    /// ```swift
    /// let report = try await fetcher.refresh()
    /// print("\(report.inserted) new tweets")
    /// ```
    @discardableResult
    public func refresh() async throws -> IngestReport {
        try await seedFromStore()
        let request = refreshCursor
        let page = try await target.fetch(api, cursor: request)
        let report = try await target.ingest(page, into: store)
        let fresh = page.tweets.lazy.map(\.id).filter { request.contains($0) }
        if request.sinceId == nil {
            // The newest page: a contiguous run from the top.
            noteSeen(newest: fresh.max(), oldest: fresh.min())
        } else {
            noteSeen(newest: fresh.max(), oldest: nil)
        }
        eventSink.yield(.fetched(report, cursor: request))
        return report
    }

    /// Fetches one page below the oldest tweet seen (`maxId = oldest − 1` only), ingests it and
    /// reports ``FetcherEvent/fetched(_:cursor:)``. When nothing was seen yet, does a
    /// ``refresh()`` instead. An empty page sets ``reachedOldest``.
    ///
    /// ```swift
    /// let report = try await fetcher.loadOlder()
    /// ```
    @discardableResult
    public func loadOlder() async throws -> IngestReport {
        try await seedFromStore()
        guard let request = olderCursor else { return try await refresh() }
        let page = try await target.fetch(api, cursor: request)
        let report = try await target.ingest(page, into: store)
        let older = page.tweets.lazy.map(\.id).filter { request.contains($0) }
        if let oldest = older.min() {
            noteSeen(newest: older.max(), oldest: oldest)
        } else {
            reachedOldest = true
        }
        eventSink.yield(.fetched(report, cursor: request))
        return report
    }

    // MARK: Running

    /// The wait before the next attempt after `failures` consecutive failures:
    /// `period × 2^failures`, at most `8 × period` (`period` when `failures` is 0).
    ///
    /// ```swift
    /// print(fetcher.retryDelay(afterFailures: 1)) // 60 seconds for a 30 s period
    /// ```
    public nonisolated func retryDelay(afterFailures failures: Int) -> Duration {
        period * (1 << min(max(failures, 0), 3))
    }

    /// Fetches at once, then every ``period`` while authorized, not paused and reachable, until
    /// the calling task is cancelled. Errors become ``FetcherEvent/failed(_:retryIn:)`` events
    /// followed by backoff; they never end the loop. Calling it while it already runs returns at
    /// once.
    ///
    /// ```swift
    /// let task = Task { await fetcher.run() }
    /// // later
    /// task.cancel()
    /// ```
    public func run() async {
        guard !running else { return }
        running = true
        defer { running = false }
        var lastIdleReason: String?
        while !Task.isCancelled {
            let version = stateVersion
            if let idle = await idleReason() {
                if idle.reason != lastIdleReason {
                    eventSink.yield(.idle(reason: idle.reason))
                    lastIdleReason = idle.reason
                }
                await wait(idle.recheck ? period : Self.untilWoken, unlessChangedSince: version)
                continue
            }
            lastIdleReason = nil
            do {
                try await refresh()
                consecutiveFailures = 0
                await wait(period, unlessChangedSince: stateVersion)
            } catch {
                if Task.isCancelled || error is CancellationError { break }
                consecutiveFailures += 1
                let delay = retryDelay(afterFailures: consecutiveFailures)
                eventSink.yield(.failed(Self.describe(error), retryIn: delay))
                await wait(delay, unlessChangedSince: stateVersion)
            }
        }
    }

    /// How long an idle fetcher waits before looking again when only an input change can end the idling.
    static let untilWoken = Duration.seconds(86_400)

    /// Why ``run()`` must not fetch now, and whether the reason can change without an input
    /// (so it is checked again every period).
    private func idleReason() async -> (reason: String, recheck: Bool)? {
        guard account.isAuthorized else { return ("not logged in: the account is unavailable", false) }
        guard !isPaused else { return ("paused", false) }
        guard await reachability.isReachable() else { return ("unreachable (checked: \(reachability.description))", true) }
        return nil
    }

    /// Sleeps `duration` on the clock; returns early when the task is cancelled or an input
    /// changes (and at once when one changed since `version`).
    private func wait(_ duration: Duration, unlessChangedSince version: UInt64) async {
        guard version == stateVersion, !Task.isCancelled else { return }
        let clock = self.clock
        let sleep = Task<Void, Never> { try? await clock.sleep(for: duration) }
        sleeper = sleep
        await withTaskCancellationHandler {
            await sleep.value
        } onCancel: {
            sleep.cancel()
        }
        if sleeper == sleep { sleeper = nil }
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }
}
