import Synchronization

/// A value that changes over time, observable by any number of subscribers: each new
/// subscriber first receives the current value (if any), then every later value in order, and
/// its stream finishes when the broadcast finishes.
final class StateBroadcast<Value: Sendable>: Sendable {
    private struct State {
        var current: Value?
        var finished = false
        var nextID: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<Value>.Continuation] = [:]
    }

    private let state: Mutex<State>

    init(_ initial: Value? = nil) {
        state = Mutex(State(current: initial))
    }

    /// The latest value sent, if any.
    var current: Value? { state.withLock { $0.current } }

    /// Whether ``finish()`` was called.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Records `value` and delivers it to every subscriber (ignored after ``finish()``).
    func send(_ value: Value) {
        state.withLock { state in
            guard !state.finished else { return }
            state.current = value
            // Yielding inside the lock keeps the order of concurrent sends; yield never calls back.
            for continuation in state.subscribers.values { continuation.yield(value) }
        }
    }

    /// Ends every subscriber's stream; later subscribers get the last value and an immediate end.
    func finish() {
        let subscribers = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
    }

    /// A stream of the current value and every later one.
    func updates() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let finishNow = state.withLock { state -> Bool in
            if let current = state.current { continuation.yield(current) }
            if state.finished { return true }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
            }
            return false
        }
        if finishNow { continuation.finish() }
        return stream
    }
}
