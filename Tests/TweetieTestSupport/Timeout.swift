import Foundation

/// A hang guard ran out: `withTimeout` waited `what` longer than it allowed.
public struct TimedOut: Error, CustomStringConvertible {
    /// What the test was waiting for.
    public let what: String
    public init(what: String) { self.what = what }
    public var description: String { "timed out waiting for \(what)" }
}

/// Runs `body`, failing with ``TimedOut`` if it takes longer than `seconds`: a hang guard, never
/// a delay or a timing test (a passing test returns as soon as `body` does).
///
/// Only time in which tasks could run counts. The tests share the process's cooperative thread
/// pool (as many threads as cores: two here), and synchronous tests that wait for child processes
/// hold its threads for seconds at a time; `make test` logs show stretches of 100 s in which no
/// async test moved. Once the pool frees, the guard and `body` become runnable together, and a
/// guard that only compared clocks failed tests whose element was already there. The guard
/// therefore sleeps in short steps and does not count a step that woke far later than asked.
///
/// The timeout cancels `body`'s task; a body that ignores cancellation keeps its task running
/// until it returns, but the test has already failed.
public func withTimeout<T: Sendable>(_ what: String, seconds: Double = 20,
                                     _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            let clock = ContinuousClock()
            let limit = Duration.seconds(seconds), step = Duration.milliseconds(min(100, max(1, Int(seconds * 100))))
            var counted = Duration.zero
            while counted < limit {
                let asleep = clock.now
                try await Task.sleep(for: step)
                let took = asleep.duration(to: clock.now)
                // Woken five steps late: no thread was free, for `body` either.
                counted += took > step * 5 ? step : took
            }
            throw TimedOut(what: what)
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}
