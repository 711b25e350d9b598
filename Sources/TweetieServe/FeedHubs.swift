import Foundation
import Synchronization
import TweetieSync

/// The feeds the server observes, one ``FeedHub`` per distinct ``FeedSpec``, started on first use
/// and stopped when no client has used them for a while.
final class FeedHubs: Sendable {
    /// Too many distinct feeds are observed at once.
    struct TooManyFeeds: Error {}
    /// Too many windows of one feed are observed at once, all of them in use.
    struct TooManyWindows: Error {}

    private struct Entry {
        var hub: FeedHub
        var task: Task<Void, Never>
    }

    private let configuration: TweetieServer.Configuration
    private let store: Store
    private let metrics: ServeMetrics
    private let entries = Mutex<[FeedSpec: Entry]>([:])

    init(configuration: TweetieServer.Configuration, store: Store, metrics: ServeMetrics) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
    }

    /// The hub of `spec`, started if needed.
    func hub(for spec: FeedSpec) throws -> FeedHub {
        try entries.withLock { entries in
            if let entry = entries[spec] { return entry.hub }
            let windows = entries.values.filter { $0.hub.spec.sameFeed(as: spec) }
            if windows.count >= configuration.maxWindowsPerFeed {
                // A page that loaded older rows left its smaller window unused.
                guard let unused = windows.first(where: { $0.hub.isIdle(for: .zero) }) else { throw TooManyWindows() }
                entries[unused.hub.spec] = nil
                unused.task.cancel()
                metrics.feeds.decrement()
            }
            guard entries.count < configuration.maxFeeds else { throw TooManyFeeds() }
            let source = FeedSource(spec, list: configuration.list, store: store, now: configuration.now)
            let hub = FeedHub(spec: spec, source: source, queueBound: configuration.clientQueueBound,
                              historyBound: configuration.historyBound, metrics: metrics)
            let task = Task { [weak self] in
                await hub.run()
                self?.remove(hub)
            }
            entries[spec] = Entry(hub: hub, task: task)
            metrics.feeds.increment()
            return hub
        }
    }

    private func remove(_ hub: FeedHub) {
        let removed = entries.withLock { entries in
            guard entries[hub.spec]?.hub === hub else { return false }
            entries[hub.spec] = nil
            return true
        }
        if removed { metrics.feeds.decrement() }
    }

    /// Sends a keep-alive to every idle client, and stops the feeds no client used for `idle`.
    func maintain(idle: Duration) {
        let (all, idleEntries) = entries.withLock { entries in
            let idleEntries = entries.values.filter { $0.hub.isIdle(for: idle) }
            for entry in idleEntries { entries[entry.hub.spec] = nil }
            return (Array(entries.values), idleEntries)
        }
        for entry in all { entry.hub.keepAlive() }
        for entry in idleEntries {
            entry.task.cancel()
            metrics.feeds.decrement()
        }
    }

    /// Ends every client's stream and stops every feed.
    func closeAll() {
        let all = entries.withLock { Array($0.values) }
        for entry in all {
            entry.hub.closeAll()
            entry.task.cancel()
        }
    }
}
