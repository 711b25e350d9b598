/// A live query of the store mapped to a value, as an `AsyncSequence` that delivers the value
/// after each change of the query's results, skipping values equal to the previous one.
///
/// ```swift
/// let count = LiveValues(store.observe(Query<Tweet>())) { $0.results.count }
/// for try await n in count { print(n, "tweets") }
/// ```
public struct LiveValues<R: Record, Value: Sendable & Equatable>: AsyncSequence, Sendable {
    /// Each element: the mapped value.
    public typealias Element = Value
    /// Errors from reading the store.
    public typealias Failure = any Error

    let observation: QueryObservation<R>
    let transform: @Sendable (QueryChange<R>) -> Value

    /// Maps each element of `observation` through `transform`.
    ///
    /// ```swift
    /// let texts = LiveValues(store.observe(query)) { $0.results.map(\.text) }
    /// ```
    public init(_ observation: QueryObservation<R>, _ transform: @escaping @Sendable (QueryChange<R>) -> Value) {
        self.observation = observation
        self.transform = transform
    }

    /// Starts observing.
    ///
    /// ```swift
    /// let iterator = values.makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: observation.makeAsyncIterator(), transform: transform)
    }

    /// Produces the elements of ``LiveValues``.
    ///
    /// ```swift
    /// let value = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        private let base: QueryObservation<R>.Iterator
        private let transform: @Sendable (QueryChange<R>) -> Value
        private var last: Value?

        init(base: QueryObservation<R>.Iterator, transform: @escaping @Sendable (QueryChange<R>) -> Value) {
            self.base = base
            self.transform = transform
        }

        /// The next value different from the previous one; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let value = try await iterator.next() { print(value) }
        /// ```
        public func next() async throws -> Value? {
            while let change = try await base.next() {
                let value = transform(change)
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}
