import Foundation
import PostgresNIO
import Synchronization
import TweetieDB

// The follow loop, with the events it reports and the two small synchronisation types it alone
// uses (SuccessFlag, WakeSignal).

/// What ``Replicator/run(events:)`` reports as it goes.
public enum ReplicationEvent: Sendable {
    /// A round pushed and pulled something (rounds that found nothing are not reported).
    case round(push: PushSummary, pull: PullSummary)
    /// The server went away or failed; the replicator tries again after `retryIn`.
    case retrying(ReplicationError, retryIn: Duration)
    /// Connected again after a failure.
    case reconnected
    /// The server's change table was pruned (prunings that removed nothing are not reported).
    case pruned(PruneSummary)
}

extension ReplicationError {
    /// Whether waiting and connecting again can help: the server or the network failed, rather
    /// than the data, the schema or the setup.
    public var isRetryable: Bool { code == .connection || code == .server }
}

/// Set when a round succeeds, so that the retry delay starts small again.
final class SuccessFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    /// Whether it was set since the last call.
    func take() -> Bool { value.withLock { state in defer { state = false }; return state } }
}

/// A wake-up that remembers one signal sent while nobody waited.
final class WakeSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

extension Replicator {
    /// Follows the store and the server until the task is cancelled: pushes after local commits
    /// (this process's or another's), pulls when the server notifies a change (`LISTEN
    /// tweetie_changes`), and both every ``ReplicatorConfiguration/pollInterval`` in case a
    /// notification was missed; prunes the server's change table every
    /// ``ReplicatorConfiguration/pruneInterval``. A server that goes away (a restart, a cut connection) is retried
    /// with a growing delay, up to ``ReplicatorConfiguration/maximumRetryDelay``, while local
    /// writes go on; errors about the data or the setup stop it.
    ///
    /// The first connection must succeed: a wrong URL, password or schema throws at once.
    ///
    /// ```swift
    /// let task = Task { try await replicator.run() }
    /// // …
    /// task.cancel()
    /// ```
    public func run(events: (@Sendable (ReplicationEvent) -> Void)? = nil) async throws {
        let wake = WakeSignal()
        let subscription = store.subscribeToCommits { wake.signal() }
        defer { store.unsubscribeFromCommits(subscription) }
        // Fail fast on what retrying cannot fix: a server that cannot be reached or refuses the
        // login at the start, a missing or newer schema, a store that is not set up. A connection
        // lost once connected (the server restarting) is retried like any later one.
        let first = try await connect()
        var link: PostgresLink? = first
        do {
            try await register(on: first, device: try await device())
        } catch let error as ReplicationError where error.isRetryable {
            await first.close()
            link = nil
        } catch {
            await first.close()
            throw error
        }
        var delay = Duration.milliseconds(100)
        var failed = false
        let succeeded = SuccessFlag()
        while !Task.isCancelled {
            do {
                let current: PostgresLink
                if let link { current = link } else {
                    current = try await connect()
                    try await register(on: current, device: try await device())
                }
                link = nil
                if failed {
                    failed = false
                    events?(.reconnected)
                }
                try await follow(on: current, wake: wake, events: events, succeeded: succeeded)
                return
            } catch let error as ReplicationError where error.isRetryable {
                link = nil
                failed = true
                if succeeded.take() { delay = .milliseconds(100) }
                logger.debug("replication: \(error.message) Retrying in \(delay).")
                events?(.retrying(error, retryIn: delay))
                do { try await Task.sleep(for: delay) } catch { return }
                delay = min(delay * 2, configuration.maximumRetryDelay)
            } catch is CancellationError {
                return
            }
        }
    }

    /// One connected stretch: a listening connection and the push/pull loop on `link`, until
    /// either fails or the task is cancelled.
    private func follow(on link: PostgresLink, wake: WakeSignal, events: (@Sendable (ReplicationEvent) -> Void)?,
                        succeeded: SuccessFlag) async throws {
        let listener: PostgresLink
        do {
            listener = try await connect()
        } catch {
            await link.close()
            throw error
        }
        let pollInterval = configuration.pollInterval
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await listener.connection.listen(on: "tweetie_changes") { notifications in
                            wake.signal()
                            for try await _ in notifications { wake.signal() }
                        }
                    } catch is CancellationError {
                        return
                    } catch {
                        if Task.isCancelled { return }
                        throw PostgresLink.describe(error, url: listener.url)
                    }
                    if Task.isCancelled { return }
                    throw ReplicationError(.connection, "The notification connection to PostgreSQL at \(listener.url) ended.")
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: pollInterval)
                        wake.signal()
                    }
                }
                group.addTask {
                    let clock = ContinuousClock()
                    var lastPruned: ContinuousClock.Instant?
                    // Changes waiting behind an older transaction: no notification comes when it
                    // ends, so look again, sooner than the poll.
                    let firstRecheck = Duration.milliseconds(2)
                    var recheck = firstRecheck
                    while !Task.isCancelled {
                        let pushed = try await self.push(on: link)
                        let pulled = try await self.pull(on: link)
                        if let retention = self.configuration.retention,
                           lastPruned.map({ clock.now - $0 >= self.configuration.pruneInterval }) ?? true {
                            lastPruned = clock.now
                            let pruned = try await self.prune(on: link, retention: retention, minimumInterval: self.configuration.pruneInterval)
                            if pruned.prunedChanges > 0 || pruned.removedTombstones > 0 { events?(.pruned(pruned)) }
                        }
                        succeeded.set()
                        if pushed.batches > 0 || pulled.batches > 0 { events?(.round(push: pushed, pull: pulled)) }
                        if pulled.waiting {
                            try await Task.sleep(for: recheck)
                            recheck = min(recheck * 2, pollInterval, .milliseconds(250))
                            continue
                        }
                        recheck = firstRecheck
                        await withTaskCancellationHandler { await wake.wait() } onCancel: { wake.signal() }
                    }
                }
                do {
                    try await group.next()
                } catch {
                    // The other tasks may be waiting on a connection that will never answer (a
                    // listen on a server that went away): closing both ends them, and the group
                    // can finish.
                    group.cancelAll()
                    await listener.close()
                    await link.close()
                    throw error
                }
                group.cancelAll()
                await listener.close()
            }
        } catch {
            await listener.close()
            await link.close()
            throw error
        }
        await listener.close()
        await link.close()
    }
}
