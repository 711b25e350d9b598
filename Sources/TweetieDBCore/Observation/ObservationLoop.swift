/// What every observation's iterator does around the results it delivers: it subscribes to
/// commits before its first read (so that no commit slips between the read and the
/// subscription), waits for the next commit, asks its core what that commit changed, and ends —
/// unsubscribed, its core dropped — when its task is cancelled or a read fails. The iterators
/// (``QueryObservation/Iterator``, ``SectionedQueryObservation/Iterator``) keep only their
/// results, and what they make of each ``LiveQueryCore/Delta``.
final class ObservationLoop<R: Record, Key: Comparable & Sendable> {
    private let store: Store
    private let signal = ObservationSignal()
    private var subscription: UInt64?
    /// The observed state, from ``start(_:)`` until ``finish()``.
    private(set) var core: LiveQueryCore<R, Key>?
    /// Whether the loop ended: the iterator then returns `nil`.
    private(set) var finished = false

    init(store: Store) {
        self.store = store
    }

    deinit {
        if let subscription { store.notifier.unsubscribe(subscription) }
    }

    /// Subscribes to commits, then makes the core with `makeCore` (whose reads come after the
    /// subscription).
    func start(_ makeCore: () throws -> LiveQueryCore<R, Key>) throws -> LiveQueryCore<R, Key> {
        let signal = self.signal
        subscription = store.notifier.subscribe { signal.signal() }
        let core = try makeCore()
        self.core = core
        return core
    }

    /// Waits until a commit may have changed something (commits since the last wait count, and
    /// several count once); `false`, with the loop finished, when the task was cancelled.
    func waitForCommit() async -> Bool {
        if await signal.wait() { return true }
        finish()
        return false
    }

    /// Waits for the next commit and returns what it changed (`oldValue`: a row's value as last
    /// delivered); `nil`, with the loop finished, when the task was cancelled.
    func nextDelta(oldValue: (Key) -> R?) async throws -> LiveQueryCore<R, Key>.Delta? {
        guard let core, await waitForCommit() else { return nil }
        return try core.delta(oldValue: oldValue)
    }

    /// Ends the loop: unsubscribes and drops the core.
    func finish() {
        finished = true
        if let subscription { store.notifier.unsubscribe(subscription) }
        subscription = nil
        core = nil
    }
}
