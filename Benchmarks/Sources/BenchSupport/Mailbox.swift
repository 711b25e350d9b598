import Synchronization

/// A one-consumer handoff between a producer (an observer callback or task) and the measuring
/// code, which awaits each item with a timeout so that a lost notification fails instead of hanging.
///
/// ```swift
/// let mailbox = Mailbox<UInt64>()
/// mailbox.put(Nanoseconds.monotonic())
/// let stamp = try await mailbox.take(timeout: 10)
/// ```
public final class Mailbox<T: Sendable>: Sendable {
    private struct State {
        var items: [T] = []
        var waiter: CheckedContinuation<T?, Never>?
        var generation: UInt64 = 0
    }
    private let state = Mutex(State())

    /// An empty mailbox.
    ///
    /// ```swift
    /// let mailbox = Mailbox<Int>()
    /// ```
    public init() {}

    /// Hands `item` to the waiting consumer, or queues it.
    ///
    /// ```swift
    /// mailbox.put(42)
    /// ```
    public func put(_ item: T) {
        let waiter = state.withLock { state -> CheckedContinuation<T?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.items.append(item)
            return nil
        }
        waiter?.resume(returning: item)
    }

    /// Drops every queued item.
    ///
    /// ```swift
    /// mailbox.drain()
    /// ```
    public func drain() { state.withLock { $0.items.removeAll() } }

    /// The next item; throws ``MailboxTimeout`` after `timeout` seconds without one.
    ///
    /// ```swift
    /// let item = try await mailbox.take(timeout: 30, waitingFor: "a changeset")
    /// ```
    public func take(timeout: Double, waitingFor what: String = "an item") async throws -> T {
        let item: T? = await withCheckedContinuation { continuation in
            let generation = state.withLock { state -> UInt64? in
                if !state.items.isEmpty {
                    continuation.resume(returning: state.items.removeFirst())
                    return nil
                }
                state.generation += 1
                state.waiter = continuation
                return state.generation
            }
            guard let generation else { return }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                let expired = self.state.withLock { state -> CheckedContinuation<T?, Never>? in
                    guard state.generation == generation, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                expired?.resume(returning: nil)
            }
        }
        guard let item else { throw MailboxTimeout(what: what, seconds: timeout) }
        return item
    }
}

/// Nothing arrived in a ``Mailbox`` in time.
///
/// ```swift
/// catch let error as MailboxTimeout { print(error) }
/// ```
public struct MailboxTimeout: Error, CustomStringConvertible {
    /// What was awaited.
    ///
    /// ```swift
    /// print(error.what)
    /// ```
    public let what: String
    /// How long.
    ///
    /// ```swift
    /// print(error.seconds)
    /// ```
    public let seconds: Double
    /// One line.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }
}
