import Foundation
import GRDB
import Synchronization
import TweetieDB
import TweetieSync

/// What an observer hands to the measuring code after a change.
///
/// ```swift
/// let delivery = try await observer.mailbox.take(timeout: 30)
/// print(delivery.at - start, delivery.changedRows)
/// ```
public struct Delivery: Sendable {
    /// CLOCK_MONOTONIC when the consumer had the changeset.
    ///
    /// ```swift
    /// print(delivery.at)
    /// ```
    public var at: UInt64
    /// Rows in the results after the change.
    ///
    /// ```swift
    /// print(delivery.resultCount)
    /// ```
    public var resultCount: Int
    /// Insertions + deletions + modifications + moves reported.
    ///
    /// ```swift
    /// print(delivery.changedRows)
    /// ```
    public var changedRows: Int
    /// For inserted rows: now (CLOCK_REALTIME) minus the stamp in `favoriteCount`, in ns.
    ///
    /// ```swift
    /// print(delivery.stampLatencies)
    /// ```
    public var stampLatencies: [UInt64]
}

/// TweetieDB's side of the notification suites: a task consuming `store.observe(query)`, posting a
/// ``Delivery`` for each non-initial element.
///
/// ```swift
/// let observer = try await TweetieTimelineObserver.start(store: store, query: Query<Tweet>().sorted(by: Tweet.byCreated))
/// try batch.apply(to: store)
/// let delivery = try await observer.mailbox.take(timeout: 30)
/// observer.stop()
/// ```
public final class TweetieTimelineObserver: Sendable {
    /// The deliveries.
    ///
    /// ```swift
    /// let delivery = try await observer.mailbox.take(timeout: 30)
    /// ```
    public let mailbox = Mailbox<Delivery>()
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let failure = Mutex<(any Error)?>(nil)

    private init() {}

    /// Starts observing and returns once the initial element has been consumed; `readStamps`
    /// makes each delivery carry the stamp latencies of the inserted rows.
    ///
    /// ```swift
    /// let observer = try await TweetieTimelineObserver.start(store: store, query: query)
    /// ```
    public static func start(store: Store, query: Query<Tweet>, readStamps: Bool = false,
                             initialTimeout: Double = 600) async throws -> TweetieTimelineObserver {
        let observer = TweetieTimelineObserver()
        let ready = Mailbox<Int>()
        let task = Task {
            do {
                for try await change in store.observe(query) {
                    let now = Nanoseconds.monotonic()
                    if change.isInitial {
                        ready.put(change.results.count)
                        continue
                    }
                    let changeset = change.changeset
                    var stamps: [UInt64] = []
                    if readStamps {
                        let realNow = Nanoseconds.realtime()
                        for index in changeset.insertions {
                            let stamp = UInt64(change.results[index].favoriteCount)
                            stamps.append(realNow > stamp ? realNow - stamp : 0)
                        }
                    }
                    observer.mailbox.put(Delivery(
                        at: now, resultCount: change.results.count,
                        changedRows: changeset.insertions.count + changeset.deletions.count + changeset.modificationsInNew.count + changeset.moves.count,
                        stampLatencies: stamps))
                }
            } catch {
                observer.failure.withLock { $0 = error }
                ready.put(-1)
            }
        }
        observer.task.withLock { $0 = task }
        let count = try await ready.take(timeout: initialTimeout, waitingFor: "the initial results of the TweetieDB observation")
        if count < 0, let error = observer.failure.withLock({ $0 }) { throw error }
        return observer
    }

    /// Ends the observation.
    ///
    /// ```swift
    /// observer.stop()
    /// ```
    public func stop() {
        task.withLock { $0?.cancel() }
    }
}

/// GRDB's side of the notification suite: a `ValueObservation` of the whole sorted timeline,
/// then `difference(from:)` on the id arrays to turn the fresh array into a changeset.
///
/// ```swift
/// let observer = try await GRDBTimelineObserver.start(peer: peer)
/// try batch.apply(to: peer)
/// let delivery = try await observer.mailbox.take(timeout: 60)
/// observer.stop()
/// ```
public final class GRDBTimelineObserver: @unchecked Sendable {
    /// The deliveries.
    ///
    /// ```swift
    /// let delivery = try await observer.mailbox.take(timeout: 60)
    /// ```
    public let mailbox = Mailbox<Delivery>()
    private var cancellable: AnyDatabaseCancellable?
    private var previous: [Int64]?  // touched only on `queue`
    private let queue = DispatchQueue(label: "grdb-observer")

    private init() {}

    /// Starts observing and returns once the initial value has arrived.
    ///
    /// ```swift
    /// let observer = try await GRDBTimelineObserver.start(peer: peer)
    /// ```
    public static func start(peer: GRDBPeer, initialTimeout: Double = 600) async throws -> GRDBTimelineObserver {
        let observer = GRDBTimelineObserver()
        let ready = Mailbox<Int>()
        let observation = ValueObservation.tracking(GRDBPeer.timeline)
        observer.cancellable = observation.start(
            in: peer.pool, scheduling: .async(onQueue: observer.queue),
            onError: { error in
                FileHandle.standardError.write(Data("GRDB observation failed: \(error)\n".utf8))
                ready.put(-1)
            },
            onChange: { tweets in observer.receive(tweets, ready: ready) })
        let count = try await ready.take(timeout: initialTimeout, waitingFor: "the initial value of the GRDB ValueObservation")
        guard count >= 0 else { throw MailboxTimeout(what: "a working GRDB observation", seconds: 0) }
        return observer
    }

    private func receive(_ tweets: [Tweet], ready: Mailbox<Int>) {
        let ids = tweets.map(\.id)
        guard let previous else {
            self.previous = ids
            ready.put(ids.count)
            return
        }
        let difference = ids.difference(from: previous)
        let now = Nanoseconds.monotonic()
        // A DatabasePool observation may deliver the same value again (its initial fetch races the
        // first write); that is not a changeset.
        guard !difference.isEmpty else { return }
        self.previous = ids
        mailbox.put(Delivery(at: now, resultCount: ids.count, changedRows: difference.count, stampLatencies: []))
    }

    /// Ends the observation.
    ///
    /// ```swift
    /// observer.stop()
    /// ```
    public func stop() {
        cancellable?.cancel()
        cancellable = nil
    }
}
