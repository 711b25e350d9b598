import Foundation

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// An observation ended (returned `nil`) where the test expected an element: a cancelled pull
/// after a timeout, or an observation that finished early. Thrown, so it is a recorded failure.
struct ObservationEnded: Error, CustomStringConvertible {
    var description: String { "the observation ended before delivering the expected element" }

    static func unwrap<T>(_ element: T?) throws -> T {
        guard let element else { throw ObservationEnded() }
        return element
    }
}

/// Runs `body`, failing with `TimedOut` if it takes longer than `seconds` (a hang guard, not a timing test).
func withTimeout<T: Sendable>(_ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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

/// Moves a non-Sendable iterator into a `@Sendable` closure; the test awaits it serially.
final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
