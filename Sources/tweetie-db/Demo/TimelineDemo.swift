import Foundation
import Synchronization
import TweetieSync

/// The `tweetie-db demo` session: a ``ListTimelineViewModel`` fed by a source, ticking a fetcher
/// and checking every delivered changeset against the sections it claims to produce.
///
/// ```swift
/// let demo = TimelineDemo(list: list, api: SimulatedTwitterSource(seed: 1), store: store)
/// Task { for await event in demo.events { render(event) } }
/// let summary = try await demo.run(ticks: 10, interval: .seconds(1))
/// ```
final class TimelineDemo: Sendable {
    /// The view model the demo runs.
    let viewModel: ListTimelineViewModel
    private let simulated: SimulatedTwitterSource?
    private let clock: SharedDate
    private let continuation: AsyncStream<TimelineDemoEvent>.Continuation
    /// Everything the demo reports, in order; finishes when ``run(ticks:interval:)`` returns.
    let events: AsyncStream<TimelineDemoEvent>
    private let tally = Mutex(TimelineDemoSummary())
    private let lastDelivered = Mutex<UInt64>(0)

    /// A demo of `list` from `api`. With a ``SimulatedTwitterSource``, each tick advances it and
    /// relative times follow its clock; otherwise they follow the wall clock.
    ///
    /// ```swift
    /// let demo = TimelineDemo(list: list, api: source, store: store)
    /// ```
    init(list: ListIdentifier, api: any TwitterAPI, store: Store, reachability: any Reachability = AlwaysReachable(), now: Date = Date()) {
        let clock = SharedDate(now)
        self.clock = clock
        simulated = api as? SimulatedTwitterSource
        let isSimulated = simulated != nil
        viewModel = ListTimelineViewModel(account: .authorized(token: "demo"), list: list, api: api, store: store,
                                          reachability: reachability, now: { isSimulated ? clock.value : Date() })
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Runs `ticks` fetches `interval` apart while rendering updates through ``events``; returns
    /// the summary. Cancelling the calling task stops early (the summary covers what ran).
    ///
    /// ```swift
    /// let summary = try await demo.run(ticks: 5, interval: .zero)
    /// ```
    func run(ticks: Int, interval: Duration) async throws -> TimelineDemoSummary {
        let store = viewModel.store
        let startSequence = try await store.read { try $0.lastChangeSequence() }
        if let simulated {
            let now = await simulated.now
            clock.value = now
        }
        let consumer = Task { [self] in try await consume() }
        defer { continuation.finish() }
        for tick in 0..<max(0, ticks) {
            if Task.isCancelled { break }
            if let simulated, tick > 0 {
                await simulated.advance()
                let now = await simulated.now
                clock.value = now
            }
            do {
                let report = try await viewModel.fetcher.refresh()
                tally.withLock { $0.ingested += report; $0.ticks += 1 }
                continuation.yield(.fetched(tick: tick, report: report))
            } catch is CancellationError {
                break
            } catch {
                tally.withLock { $0.ticks += 1 }
                continuation.yield(.failed(tick: tick, message: "\(error)"))
            }
            if interval > .zero, tick < ticks - 1 { try? await Task.sleep(for: interval) }
        }
        // Let the view model deliver the last commits, then stop observing.
        let lastSequence = try await store.read { try $0.lastChangeSequence() }
        let deadline = ContinuousClock.now + .seconds(10)
        while lastDelivered.withLock({ $0 }) < lastSequence, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
        consumer.cancel()
        _ = await consumer.result
        let listKey = viewModel.list.key
        let (stored, listTweets) = try await store.read { tx in
            (try tx.count(Tweet.self), try tx.fetchCount(Query<Tweet>().filter { $0.lists.contains(listKey) }))
        }
        return tally.withLock { summary in
            summary.tweetsStored = stored
            summary.listTweets = listTweets
            summary.commits = Int(lastSequence - startSequence)
            return summary
        }
    }

    private func consume() async throws {
        var previous: [TimelineSection] = []
        for try await update in viewModel.tweets {
            var event = TimelineDemoUpdate(sections: Array(update.sections), changeset: update.changeset, isInitial: update.isInitial,
                                           sequence: update.sequence, appliedExactly: true, insertedIds: [], modifiedIds: [], movedIds: [], deletedCount: 0)
            if !update.isInitial {
                let new = update.sections
                let applied = update.changeset.apply(to: previous.map { Array($0.rows) }, insertedSection: { Array(new[$0].rows) },
                                                     newElement: { new[$0.section].rows[$0.row] })
                // Relative times are recomputed for every row on each delivery: compare content.
                event.appliedExactly = applied.count == new.count && zip(applied, new).allSatisfy { rows, section in
                    rows.count == section.rows.count && zip(rows, section.rows).allSatisfy { $0.hasSameContent(as: $1) }
                }
                func rows(_ paths: [RowPath]) -> Set<Int64> { Set(paths.map { new[$0.section].rows[$0.row].id }) }
                event.insertedIds = rows(update.changeset.rowInsertions).union(update.changeset.sectionInsertions.flatMap { new[$0].rows.map(\.id) })
                event.modifiedIds = rows(update.changeset.rowModificationsInNew)
                event.movedIds = rows(update.changeset.rowMoves.map(\.to))
                event.deletedCount = update.changeset.rowDeletions.count + update.changeset.sectionDeletions.reduce(0) { $0 + previous[$1].rows.count }
                let e = event
                tally.withLock {
                    $0.changesets += 1
                    if !e.appliedExactly { $0.inexactChangesets += 1 }
                    $0.rowsInserted += e.insertedIds.count
                    $0.rowsModified += e.modifiedIds.count
                    $0.rowsMoved += e.movedIds.count
                    $0.rowsDeleted += e.deletedCount
                }
            }
            lastDelivered.withLock { $0 = update.sequence }
            previous = Array(update.sections)
            continuation.yield(.update(event))
        }
    }
}
