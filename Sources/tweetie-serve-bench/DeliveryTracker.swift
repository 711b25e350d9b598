import Synchronization

/// When each client received the newest sequence: the bench's record of deliveries.
///
/// Each client's newest id and the instant it rose are kept as they arrive, so a message that
/// reaches a client before the bench has read its commit's sequence still counts, with its real
/// time. The bench waits for every delivery before the next commit, so a client's id rises once per
/// commit and the instant it rose past the commit's sequence is the moment it received that commit.
final class DeliveryTracker: Sendable {
    private struct State {
        var newest: [UInt64]
        var rose: [ContinuousClock.Instant]
        var target: UInt64 = .max
        /// How many clients have an id at or past `target`.
        var reached = 0
        var snapshotBytes = 0
    }

    let clients: Int
    private let state: Mutex<State>

    init(clients: Int) {
        self.clients = clients
        state = Mutex(State(newest: Array(repeating: 0, count: clients), rose: Array(repeating: .now, count: clients)))
    }

    /// How many clients have received `target` (or later) so far.
    var reached: Int { state.withLock { $0.reached } }
    /// The largest first delivery (the snapshot with its HTTP head), in bytes.
    var snapshotBytes: Int { state.withLock { $0.snapshotBytes } }

    /// Counts from now on the clients that have `sequence` or later.
    func expect(_ sequence: UInt64) {
        state.withLock { state in
            state.target = sequence
            state.reached = state.newest.count { $0 >= sequence }
        }
    }

    /// Client `client` received events up to `id` in a read of `bytes` bytes.
    func received(id: UInt64, client: Int, bytes: Int) {
        let now = ContinuousClock.now
        state.withLock { state in
            let previous = state.newest[client]
            guard id > previous else { return }
            if previous == 0 { state.snapshotBytes = max(state.snapshotBytes, bytes) }
            state.newest[client] = id
            state.rose[client] = now
            if previous < state.target && id >= state.target { state.reached += 1 }
        }
    }

    /// Once every client has `sequence` (see ``expect(_:)``), each one's time from `committed` to
    /// its delivery; `nil` after `timeout`.
    func wait(for sequence: UInt64, committed: ContinuousClock.Instant, timeout: Duration) async throws -> [Duration]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let done: [Duration]? = state.withLock { state in
                guard state.target == sequence, state.reached == clients else { return nil }
                return state.rose.map { committed.duration(to: $0) }
            }
            if let done { return done }
            try await Task.sleep(for: .microseconds(200))
        }
        return nil
    }
}
