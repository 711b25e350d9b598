// The suite and the two observers it times, which nothing else uses.
import Foundation
import Synchronization
import TweetieDB
import TweetieSync

extension Suites {
    // MARK: 8. View models at a million rows

    /// The list whose timeline suite 8 observes.
    public static let viewModelList = ListIdentifier.rxSwift

    /// Suite 8's figures at one n: one-row changes delivered through the list timeline's view model.
    public struct ViewModelDeliveries: Sendable {
        /// Write start → the view model's update turned into its feed change message, rows made
        /// when read (the library as it is).
        public var viewModel: LatencyStats
        /// The same, with every row of every section made on each delivery (what the view models
        /// did before their rows were made on read): the in-run baseline.
        public var everyRow: LatencyStats
        /// Write start → the store's sectioned observation of the same query delivers (no rows,
        /// no titles): the floor the view model stands on.
        public var store: LatencyStats
        /// The view model's first delivery (the observation's initial results and the initial
        /// update's feed message), one sample per round of ``startRounds(n:)``.
        public var start: LatencyStats
        /// The store's sectioned observation's first element (its initial results), one sample
        /// per round.
        public var storeStart: LatencyStats
        /// Fetching the same records in one read, one sample per round.
        public var fetch: LatencyStats
        /// The view model's first start, the first thing the process did after the fill (before
        /// its heap had held a result of this size): one sample, apart from the rounds.
        public var firstStart: UInt64
        /// Write start → the view model's update with the default window (``windowLimit`` rows,
        /// tweetie-serve's default) turned into its feed change message and encoded (an SSE
        /// event's data), for a new newest tweet: one row enters, the oldest leaves.
        public var windowed: LatencyStats
        /// Making and encoding the window's snapshot from a delivery (what a client joining
        /// tweetie-serve gets), a few samples.
        public var windowSnapshot: LatencyStats
        /// That snapshot's bytes.
        public var windowSnapshotBytes: Int
    }

    /// The window of suite 8's windowed observer: tweetie-serve's default.
    public static let windowLimit = 100

    /// Adds tweets `1...count`, every one in ``viewModelList``.
    ///
    /// ```swift
    /// try Suites.fillListTimeline(fixture, count: 100_000)
    /// ```
    public static func fillListTimeline(_ fixture: TweetieFixture, count: Int) throws {
        let key = viewModelList.key
        try fixture.fill(count: count) { tweets in tweets.map { var tweet = $0; tweet.lists = [key]; return tweet } }
    }

    /// Measures suite 8 on a store filled by ``fillListTimeline(_:count:)`` with `n` tweets:
    /// `commits` one-tweet inserts at random places in the timeline for each observer
    /// (`everyRowCommits` for the every-row baseline, which costs O(n) a delivery).
    ///
    /// ```swift
    /// let figures = try await Suites.viewModelDeliveries(fixture: fixture, n: 10_000, commits: 30, everyRowCommits: 30)
    /// ```
    public static func viewModelDeliveries(fixture: TweetieFixture, n: Int, commits: Int, everyRowCommits: Int,
                                           seed: UInt64 = 8) async throws -> ViewModelDeliveries {
        let store = fixture.store
        let query = TimelineTarget.list(viewModelList).storedTweets
        var rng = SplitMix64(seed: seed)
        var nextId = Int64(n) + 1
        var live = n

        /// One-tweet inserts, each at the time of a random existing tweet, timed from just before
        /// the write to the observer's delivery.
        /// With `newest`, each tweet is the newest (a windowed observer hears of nothing else).
        func run(_ name: String, _ count: Int, mailbox: Mailbox<Delivery>, newest: Bool = false) async throws -> LatencyStats {
            var samples: [UInt64] = []
            for _ in 0..<count {
                var tweet = fixture.generator.tweet(id: Int64(rng.next() % UInt64(n)) + 1)
                if newest { tweet.created = Date(timeIntervalSinceReferenceDate: 1e9 + Double(nextId)) }
                tweet.id = nextId
                tweet.lists = [viewModelList.key]
                nextId += 1
                let inserted = tweet
                let begin = Nanoseconds.monotonic()
                try await store.write { tx in try tx.add(inserted) }
                live += 1
                let delivery = try await mailbox.take(timeout: 300, waitingFor: "a \(name) delivery")
                let rows = newest ? min(live, windowLimit) : live
                let changes = newest && live > windowLimit ? 2 : 1
                guard delivery.resultCount == rows, delivery.changedRows == changes else {
                    throw SuiteError("\(name) delivered \(delivery.resultCount) rows and \(delivery.changedRows) changes; expected \(rows) and \(changes)")
                }
                samples.append(delivery.at - begin)
            }
            return LatencyStats(samples)
        }

        let (lazy, lazyStart) = try await ViewModelObserver.start(store: store, makeEveryRow: false, limit: nil)
        let viewModel = try await run("view model", commits, mailbox: lazy.mailbox)
        await lazy.stop()
        let (eager, _) = try await ViewModelObserver.start(store: store, makeEveryRow: true, limit: nil)
        let everyRow = try await run("every-row view model", everyRowCommits, mailbox: eager.mailbox)
        await eager.stop()
        let (window, _) = try await ViewModelObserver.start(store: store, makeEveryRow: false, limit: windowLimit)
        let windowed = try await run("windowed view model", commits, mailbox: window.mailbox, newest: true)
        await window.stop()
        let snapshot = window.snapshot.withLock { $0 }
        let (floor, _) = try await StoreSectionedObserver.start(store: store, query: query)
        let storeStats = try await run("store observation", commits, mailbox: floor.mailbox)
        await floor.stop()
        let starts = try await observationStarts(store: store, expected: live, rounds: startRounds(n: n))
        guard let start = starts.viewModel, let storeStart = starts.store, let fetch = starts.fetch else {
            throw SuiteError("observation starts: a kind was not timed")
        }
        return ViewModelDeliveries(viewModel: viewModel, everyRow: everyRow, store: storeStats, start: start,
                                   storeStart: storeStart, fetch: fetch, firstStart: lazyStart,
                                   windowed: windowed, windowSnapshot: LatencyStats(snapshot.samples), windowSnapshotBytes: snapshot.bytes)
    }

    /// How many rounds of a fetch and two starts suite 8 times at `n` records.
    public static func startRounds(n: Int) -> Int { n >= 1_000_000 ? 3 : 5 }

    /// Observation starts against fetches of the same records, one sample of each per round.
    public struct ObservationStarts: Sendable {
        /// Fetching the list timeline's records in one read; `nil` when not timed.
        public var fetch: LatencyStats?
        /// The store's sectioned observation's first element (its initial results); `nil` when not timed.
        public var store: LatencyStats?
        /// The view model's first update with its feed message; `nil` when not timed.
        public var viewModel: LatencyStats?
    }

    /// What one round of ``observationStarts(store:expected:rounds:kinds:)`` times.
    public enum StartKind: String, CaseIterable, Sendable {
        case fetch, store, viewModel = "viewmodel"
    }

    /// Times `rounds` rounds of one fetch of the list timeline, one start of the store's sectioned
    /// observation and one start of the view model (those of `kinds`), on a store filled by
    /// ``fillListTimeline(_:count:)`` with `expected` records. Each start is compared with fetches
    /// made seconds around it (this machine's speed drifts within minutes), and each result is
    /// freed before the next is made. A kind left out has no samples.
    ///
    /// ```swift
    /// let starts = try await Suites.observationStarts(store: fixture.store, expected: 100_000, rounds: 5)
    /// ```
    public static func observationStarts(store: Store, expected: Int, rounds: Int,
                                         kinds: Set<StartKind> = Set(StartKind.allCases)) async throws -> ObservationStarts {
        let query = TimelineTarget.list(viewModelList).storedTweets
        func timedFetch() throws -> UInt64 {
            let begin = Nanoseconds.monotonic()
            let all = try store.read { try $0.fetch(query) }
            let elapsed = Nanoseconds.monotonic() - begin
            guard all.count == expected else { throw SuiteError("the fetch returned \(all.count) of \(expected)") }
            return elapsed
        }
        if kinds.contains(.fetch) { _ = try timedFetch() }
        var fetches: [UInt64] = [], storeStarts: [UInt64] = [], starts: [UInt64] = []
        for _ in 0..<rounds {
            if kinds.contains(.fetch) { fetches.append(try timedFetch()) }
            if kinds.contains(.store) {
                let (observer, storeStart) = try await StoreSectionedObserver.start(store: store, query: query)
                await observer.stop()
                storeStarts.append(storeStart)
            }
            if kinds.contains(.viewModel) {
                let (viewModel, start) = try await ViewModelObserver.start(store: store, makeEveryRow: false, limit: nil)
                await viewModel.stop()
                starts.append(start)
            }
        }
        func stats(_ samples: [UInt64]) -> LatencyStats? { samples.isEmpty ? nil : LatencyStats(samples) }
        return ObservationStarts(fetch: stats(fetches), store: stats(storeStarts), viewModel: stats(starts))
    }
}

/// Suite 8's view-model side: a task consuming the list timeline's view-model updates and turning
/// each into its feed message (``FeedBuilder``), as `tweetie-db feed` and `tweetie-serve` do.
final class ViewModelObserver: Sendable {
    let mailbox = Mailbox<Delivery>()
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// With a limit: the initial update's snapshot, made and encoded a few times, and its bytes.
    let snapshot = Mutex<(samples: [UInt64], bytes: Int)>(([], 0))

    private init() {}

    /// Starts observing, with a window of `limit` rows when given (then each message is encoded
    /// too, as tweetie-serve does); returns the observer and how long its initial update took, in ns.
    static func start(store: Store, makeEveryRow: Bool, limit: Int?) async throws -> (ViewModelObserver, UInt64) {
        let observer = ViewModelObserver()
        let ready = Mailbox<UInt64>()
        let begin = Nanoseconds.monotonic()
        let task = Task {
            var builder = FeedBuilder<TimelineRow>(feed: "list \(Suites.viewModelList)")
            do {
                let encoder = RecordJSON.encoder()
                for try await update in ListTimelineViewModel.tweets(of: Suites.viewModelList, in: store, sections: .day, limit: limit, now: Date.init) {
                    if makeEveryRow {
                        // Every row of every section, as a delivery held them before they were made on read.
                        var made = 0
                        for section in update.sections { made += Array(section.rows).count }
                        precondition(made == update.rowCount, "made \(made) of \(update.rowCount) rows")
                    }
                    let message = builder.message(for: update)
                    if limit != nil { _ = try encoder.encode(message) }
                    let now = Nanoseconds.monotonic()
                    if update.isInitial {
                        if limit != nil {
                            var samples: [UInt64] = [], bytes = 0
                            for _ in 0..<7 {
                                let begin = Nanoseconds.monotonic()
                                bytes = try RecordJSON.encoder().encode(builder.snapshot(of: update, reason: .initial)).count
                                samples.append(Nanoseconds.monotonic() - begin)
                            }
                            observer.snapshot.withLock { $0 = (samples, bytes) }
                        }
                        ready.put(now - begin)
                        continue
                    }
                    let changed = (message.rowInsertions?.count ?? 0) + (message.rowDeletions?.count ?? 0)
                        + (message.rowModifications?.count ?? 0) + (message.rowMoves?.count ?? 0)
                        + (message.sectionInsertions?.reduce(0) { $0 + $1.section.rows.count } ?? 0)
                    observer.mailbox.put(Delivery(at: now, resultCount: update.rowCount, changedRows: changed, stampLatencies: []))
                }
            } catch {
                ready.put(.max)
            }
        }
        observer.task.withLock { $0 = task }
        let startNs = try await ready.take(timeout: 900, waitingFor: "the view model's initial update")
        guard startNs != .max else { throw SuiteError("the view model's observation failed before its initial update") }
        return (observer, startNs)
    }

    /// Cancels the observing task and waits for it to end, so that its results are freed before
    /// the next measurement starts (freeing a million rows on the other core slows it).
    func stop() async {
        let task = task.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}

/// Suite 8's floor: the store's sectioned observation of the same query, sectioned by day, no
/// rows made.
final class StoreSectionedObserver: Sendable {
    let mailbox = Mailbox<Delivery>()
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init() {}

    /// Starts observing; returns the observer and how long its initial results took, in ns.
    static func start(store: Store, query: Query<Tweet>) async throws -> (StoreSectionedObserver, UInt64) {
        let observer = StoreSectionedObserver()
        let ready = Mailbox<Int>()
        let begin = Nanoseconds.monotonic()
        let task = Task {
            do {
                let observation = store.observe(query, sectionedBy: { TimelineFormat.dayKey(of: $0.created) }, sectionOrder: .descending)
                for try await change in observation {
                    let now = Nanoseconds.monotonic()
                    if change.isInitial { ready.put(change.results.rowCount); continue }
                    let c = change.changeset
                    let changed = c.rowInsertions.count + c.rowDeletions.count + c.rowModificationsInNew.count + c.rowMoves.count
                        + c.sectionInsertions.reduce(0) { $0 + change.results.numberOfRows(inSection: $1) }
                    observer.mailbox.put(Delivery(at: now, resultCount: change.results.rowCount, changedRows: changed, stampLatencies: []))
                }
            } catch {
                ready.put(-1)
            }
        }
        observer.task.withLock { $0 = task }
        guard try await ready.take(timeout: 900, waitingFor: "the store observation's initial results") >= 0 else {
            throw SuiteError("the store's sectioned observation failed before its initial results")
        }
        return (observer, Nanoseconds.monotonic() - begin)
    }

    /// Cancels the observing task and waits for it to end, so that its results are freed before
    /// the next measurement starts (freeing a million rows on the other core slows it).
    func stop() async {
        let task = task.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}
