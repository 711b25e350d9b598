import Foundation

/// The list timeline as an `AsyncSequence` of ``TimelineUpdate``: a sectioned live query of the
/// store, each element converted to rows with relative times against the injected `now`.
///
/// Each iteration opens its own store observation (no task, no buffering: an element is read
/// when asked for; a slow consumer gets one changeset covering several commits). Cancelling the
/// consuming task ends the iteration.
///
/// ```swift
/// for try await update in viewModel.tweets { render(update) }
/// ```
public struct TimelineUpdates: AsyncSequence, Sendable {
    /// Each element: sections and changeset.
    public typealias Element = TimelineUpdate
    /// Errors from reading the store.
    public typealias Failure = any Error

    let observation: SectionedQueryObservation<TimelineDay, Tweet>
    let now: @Sendable () -> Date

    /// Starts observing.
    ///
    /// ```swift
    /// let iterator = viewModel.tweets.makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: observation.makeAsyncIterator(), now: now)
    }

    /// Produces the elements of ``TimelineUpdates``.
    ///
    /// ```swift
    /// let first = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        private let base: SectionedQueryObservation<TimelineDay, Tweet>.Iterator
        private let now: @Sendable () -> Date

        init(base: SectionedQueryObservation<TimelineDay, Tweet>.Iterator, now: @escaping @Sendable () -> Date) {
            self.base = base
            self.now = now
        }

        /// The next update; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let update = try await iterator.next() { render(update) }
        /// ```
        public func next() async throws -> TimelineUpdate? {
            guard let change = try await base.next() else { return nil }
            let now = now()
            let sections = change.results.sections.map { day, tweets in
                TimelineSection(key: day.key, title: day.title(now: now), rows: tweets.map { TimelineRow($0, now: now) })
            }
            return TimelineUpdate(sections: sections, changeset: change.changeset, isInitial: change.isInitial, sequence: change.sequence)
        }
    }
}
