import Synchronization

/// A clock that never moves by itself: `sleep(until:)` suspends until the test calls
/// ``advance(by:)`` past the deadline (or the sleeping task is cancelled). Tests never really sleep.
final class ManualClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelledBeforeSuspending: Set<UInt64> = []
        var sleepCalls = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the waiters satisfied by the current number of sleepers.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { sleepers.count >= $0.count }.map(\.continuation)
            waiters.removeAll { sleepers.count >= $0.count }
            return ready
        }
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// How many tasks are suspended in `sleep(until:)`.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    /// The deadlines of the suspended sleepers, as offsets from now, ascending.
    var pendingDelays: [Duration] {
        state.withLock { state in state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted() }
    }
    /// How many times `sleep(until:)` was called.
    var sleepCalls: Int { state.withLock { $0.sleepCalls } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.sleepCalls += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case cancelled, elapsed, suspended([CheckedContinuation<Void, Never>]) }
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelledBeforeSuspending.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .elapsed }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .suspended(state.readyWaiters())
                }
                switch outcome {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .elapsed: continuation.resume()
                case .suspended(let ready): for waiter in ready { waiter.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelledBeforeSuspending.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and resumes every sleeper whose deadline has come, earliest first.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are suspended in `sleep(until:)`.
    func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
