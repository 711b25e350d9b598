import Foundation
import NIOCore
import Synchronization
import TweetieSync

/// One observed feed and its clients: the store is observed once, each message is encoded once,
/// and the same bytes are queued to every client.
///
/// Snapshots too: the snapshot of a sequence (one for `initial`, one for `reset`) is encoded by the
/// first client that needs it while the others wait, and that one buffer is what every client gets
/// and what a plain `GET` answers with. A client costs its queue of shared frames, not a copy of
/// the feed.
///
/// Each client has a queue of at most ``queueBound`` messages. A client that falls further behind
/// (it reads slower than commits arrive) loses its queue and receives, when it reads again, one
/// `reset` snapshot of the current state followed by the messages after it: memory per client stays
/// bounded and no client holds back the others.
///
/// The hub keeps the last ``historyBound`` change messages for resuming clients: a client that
/// resumes after a sequence the hub delivered gets the messages after it; a client that resumes
/// after an older sequence (before the hub started, for example after a server restart) gets them
/// when the change log shows that no commit in between touched the feed's collection; otherwise it
/// gets a `reset` snapshot.
final class FeedHub: Sendable {
    /// What a client's next read returns.
    enum Pull: Sendable {
        case frame(SSEFrame)
        case closed
    }

    private struct Client {
        var queue = CircularBuffer<SSEFrame>()
        /// The reason of the snapshot the client must get before its queue (`initial` or `reset`).
        var pendingSnapshot: FeedSnapshotReason?
        var waiter: CheckedContinuation<Pull, Never>?
    }

    private struct State {
        var clients: [Int: Client] = [:]
        var nextID = 0
        var ready = false
        var readyWaiters: [CheckedContinuation<Void, any Error>] = []
        var failure: (any Error)?
        /// The sequence of the last message.
        var sequence: UInt64 = 0
        /// The sequence from which ``history`` is complete.
        var base: UInt64 = 0
        /// The last change messages, each with the sequence it applies to.
        var history = CircularBuffer<(previous: UInt64, sequence: UInt64, frame: SSEFrame)>()
        var snapshot: SnapshotMaker?
        /// The snapshot frames of ``sequence`` encoded so far, by reason.
        var cachedSnapshots: [FeedSnapshotReason: (sequence: UInt64, frame: SSEFrame)] = [:]
        /// The position of the last message (``sequence`` with its commit id).
        var position = ChangeLogPosition.origin
        var lastUse = ContinuousClock.now
    }

    /// The feed.
    let spec: FeedSpec
    /// The most messages queued for one client.
    let queueBound: Int
    /// The most change messages kept for resuming clients.
    let historyBound: Int
    private let source: FeedSource
    private let metrics: ServeMetrics
    private let state = Mutex(State())
    /// Held while a snapshot is encoded, so that clients asking at once share one encoding.
    private let encoding = Mutex(())

    init(spec: FeedSpec, source: FeedSource, queueBound: Int, historyBound: Int, metrics: ServeMetrics) {
        self.spec = spec
        self.source = source
        self.queueBound = queueBound
        self.historyBound = historyBound
        self.metrics = metrics
    }

    /// Observes the feed until cancelled or failed; then every client is closed.
    func run() async {
        do {
            try await source.follow { publish($0) }
            finish(failure: CancellationError())
        } catch {
            finish(failure: error)
        }
    }

    private func publish(_ delivery: FeedDelivery) {
        metrics.messages.increment()
        let frame = SSEFrame(delivery.event, arrived: .now)
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            let previous = state.sequence
            state.sequence = delivery.event.sequence
            state.position = delivery.event.position
            state.snapshot = delivery.snapshot
            state.cachedSnapshots = [:]
            // A snapshot delivery is its sequence's snapshot, already encoded: the first client of a
            // new feed or window takes it instead of paying for a second encoding of every row.
            if let reason = delivery.event.snapshotReason {
                var snapshot = frame
                snapshot.arrived = nil
                state.cachedSnapshots[reason] = (delivery.event.sequence, snapshot)
            }
            guard state.ready else {
                state.ready = true
                state.base = delivery.event.sequence
                defer { state.readyWaiters = [] }
                return state.readyWaiters
            }
            if delivery.event.snapshotReason == nil {
                state.history.append((previous, delivery.event.sequence, frame))
                if state.history.count > historyBound { state.base = state.history.removeFirst().sequence }
            } else {
                state.history.removeAll()
                state.base = delivery.event.sequence
            }
            for id in Array(state.clients.keys) { enqueue(frame, to: id, in: &state) }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }

    private func enqueue(_ frame: SSEFrame, to id: Int, in state: inout State) {
        // In place (through the dictionary's subscript), so that no queue is copied.
        guard state.clients[id] != nil, state.clients[id]!.pendingSnapshot == nil else { return }
        if let waiter = state.clients[id]!.waiter {
            state.clients[id]!.waiter = nil
            waiter.resume(returning: .frame(frame))
        } else if state.clients[id]!.queue.count >= queueBound {
            state.clients[id]!.queue.removeAll()
            state.clients[id]!.pendingSnapshot = .reset
            metrics.slowClientResets.increment()
        } else {
            state.clients[id]!.queue.append(frame)
        }
    }

    private func finish(failure: any Error) {
        let waiters = state.withLock { state in
            state.failure = failure
            defer { state.readyWaiters = [] }
            return state.readyWaiters
        }
        for waiter in waiters { waiter.resume(throwing: failure) }
        closeAll()
    }

    /// Waits for the feed's first snapshot.
    private func waitUntilReady() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result: Result<Void, any Error>? = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                if state.ready { return .success(()) }
                state.readyWaiters.append(continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Registers a client; it starts with a snapshot (`after` is `nil`), or with what it missed
    /// after `after` (see the type's discussion). Returns the client's id for ``next(_:)``.
    func subscribe(after: ChangeLogPosition?) async throws -> Int {
        try await waitUntilReady()
        // The first sequence the hub delivered at or after `after`: when the client's sections are
        // that sequence's, it misses exactly the change messages after it.
        var boundary: UInt64?
        if let after {
            let delivered = state.withLock { state in [state.base] + state.history.map(\.sequence) }
            boundary = try source.resumePoint(after, delivered)
        }
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            var client = Client()
            if after == nil {
                client.pendingSnapshot = .initial
            } else if let boundary, boundary >= state.base,
                      case let frames = state.history.filter({ $0.previous >= boundary }).map(\.frame), frames.count <= queueBound {
                client.queue.append(contentsOf: frames)
            } else {
                client.pendingSnapshot = .reset
            }
            let id = state.nextID
            state.nextID += 1
            state.clients[id] = client
            state.lastUse = .now
            metrics.clients.increment()
            return id
        }
    }

    /// The client's next frame, waiting for one; `.closed` once the client was removed or the feed
    /// ended. Cancelling the calling task removes the client.
    func next(_ id: Int) async throws -> Pull {
        let reason: FeedSnapshotReason? = state.withLock { $0.clients[id]?.pendingSnapshot }
        if let reason {
            return try snapshot(reason: reason) { state, frame in
                guard state.clients[id] != nil else { return .closed }
                state.clients[id]!.queue.removeAll()
                state.clients[id]!.pendingSnapshot = nil
                return .frame(frame)
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Pull, Never>) in
                let ready: Pull? = state.withLock { state in
                    guard state.clients[id] != nil else { return .closed }
                    if state.clients[id]!.pendingSnapshot != nil { return .frame(SSEFrame.keepAlive) }  // the next read sends it
                    if let frame = state.clients[id]!.queue.popFirst() { return .frame(frame) }
                    state.clients[id]!.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }

    /// Removes a client; its pending read returns `.closed`.
    func unsubscribe(_ id: Int) {
        let waiter: CheckedContinuation<Pull, Never>?? = state.withLock { state in
            state.lastUse = .now
            return state.clients.removeValue(forKey: id).map(\.waiter)
        }
        guard let waiter else { return }
        metrics.clients.decrement()
        waiter?.resume(returning: .closed)
    }

    /// Closes every client (their streams end).
    func closeAll() {
        let clients = state.withLock { state in
            defer { state.clients = [:] }
            return state.clients
        }
        for client in clients.values { client.waiter?.resume(returning: .closed) }
        metrics.clients.decrement(by: Double(clients.count))
    }

    /// Sends a keep-alive comment to every client waiting for a message.
    func keepAlive() {
        state.withLock { state in
            for id in state.clients.keys {
                if let waiter = state.clients[id]?.waiter {
                    state.clients[id]!.waiter = nil
                    waiter.resume(returning: .frame(.keepAlive))
                }
            }
        }
    }

    /// Whether the hub has had no client for `interval` (then it may be stopped).
    func isIdle(for interval: Duration) -> Bool {
        state.withLock { $0.clients.isEmpty && $0.lastUse.duration(to: .now) > interval }
    }

    /// The current snapshot (reason `initial`), with its position: the message JSON, a view of the
    /// frame that streams get; `unchanged` is asked first and nothing is encoded when it returns true.
    func currentSnapshot(unchanged: (ChangeLogPosition) -> Bool) async throws -> (position: ChangeLogPosition, json: ByteBuffer?) {
        try await waitUntilReady()
        let position = state.withLock { state in
            state.lastUse = .now
            return state.position
        }
        if unchanged(position) { return (position, nil) }
        return try snapshot(reason: .initial) { state, frame in (state.position, frame.data) }
    }

    /// Takes the snapshot frame of the current sequence (encoding it if no one did yet), then runs
    /// `body` under the lock if no message arrived meanwhile (else starts again).
    private func snapshot<T: Sendable>(reason: FeedSnapshotReason, _ body: (inout State, SSEFrame) -> T) throws -> T {
        while true {
            let (sequence, frame) = try encoding.withLock { _ in try snapshotFrame(reason: reason) }
            let result: T? = state.withLock { state in
                guard state.sequence == sequence else { return nil }
                return body(&state, frame)
            }
            if let result { return result }
        }
    }

    /// The `reason` snapshot frame of the current sequence: from the cache, or encoded (outside the
    /// state's lock) and cached. Callers hold ``encoding``: a client that asks while another
    /// encodes waits for that frame instead of making its own copy.
    private func snapshotFrame(reason: FeedSnapshotReason) throws -> (sequence: UInt64, frame: SSEFrame) {
        let (maker, sequence, cached) = try state.withLock { state in
            if let failure = state.failure { throw failure }
            return (state.snapshot!, state.sequence, state.cachedSnapshots[reason])
        }
        if let cached, cached.sequence == sequence { return cached }
        let frame = SSEFrame(try maker(reason), arrived: nil)
        state.withLock { state in
            if state.sequence == sequence { state.cachedSnapshots[reason] = (sequence, frame) }
        }
        return (sequence, frame)
    }
}
