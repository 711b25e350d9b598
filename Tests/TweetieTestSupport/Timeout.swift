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
/// The timeout cancels `body`'s task; a body that ignores cancellation keeps its task running
/// until it returns, but the test has already failed.
public func withTimeout<T: Sendable>(_ what: String, seconds: Double = 20,
                                     _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            throw TimedOut(what: what)
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}
