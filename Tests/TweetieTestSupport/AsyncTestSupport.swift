/// Moves a non-Sendable value (an async iterator) into `@Sendable` closures; each test uses it
/// from one task at a time.
public final class UncheckedBox<T>: @unchecked Sendable {
    public var value: T
    public init(_ value: T) { self.value = value }
}

/// An async sequence ended (returned `nil`) where the test expected an element: a cancelled pull
/// after a timeout, or an observation that finished early. Thrown, so it is a recorded failure.
public struct ObservationEnded: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the observation ended before delivering the expected element" }

    /// `element`, or ``ObservationEnded`` when it is `nil`.
    public static func unwrap<T>(_ element: T?) throws -> T {
        guard let element else { throw ObservationEnded() }
        return element
    }
}

/// Pulls elements of any async sequence one at a time, each with a hang guard.
public final class Pull<S: AsyncSequence & SendableMetatype>: @unchecked Sendable where S.Element: Sendable {
    private var iterator: S.AsyncIterator
    public init(_ sequence: S) { iterator = sequence.makeAsyncIterator() }

    /// The next element (`nil` when the sequence ended), waiting at most `seconds`.
    public func next(_ what: String = "the next element", seconds: Double = 20) async throws -> S.Element? {
        try await withTimeout(what, seconds: seconds) { try await self.advance() }
    }

    /// The next element, or ``ObservationEnded`` when the sequence ended.
    public func element(_ what: String = "the next element", seconds: Double = 20) async throws -> S.Element {
        try ObservationEnded.unwrap(try await next(what, seconds: seconds))
    }

    private func advance() async throws -> S.Element? {
        try await iterator.next()
    }
}
