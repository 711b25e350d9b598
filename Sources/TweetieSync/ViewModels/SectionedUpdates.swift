import Foundation

/// A view model's live sections as an `AsyncSequence` of ``SectionedUpdate``: a sectioned live
/// query of the store, each element turned into table-ready rows and section titles against the
/// `now` of that delivery.
///
/// A delivery makes no rows: its sections and rows (``FeedList``) are made from the observation's
/// results when read, each in O(log n). Applying a changeset of k rows costs O(k log n) however
/// long the timeline is; only reading every row (a full reload, a snapshot) is O(n).
///
/// Each iteration opens its own store observation (no task, no buffering: an element is read
/// when asked for; a slow consumer gets one changeset covering several commits). Cancelling the
/// consuming task ends the iteration.
///
/// ```swift
/// for try await update in viewModel.tweets { render(update) }
/// ```
public struct SectionedUpdates<Row: Codable & Sendable & Hashable>: AsyncSequence, Sendable {
    /// Each element: sections and changeset.
    public typealias Element = SectionedUpdate<Row>
    /// Errors from reading the store.
    public typealias Failure = any Error

    /// The store observed.
    let store: Store
    /// The observed collection's name (its change-log entries are the ones that can change the rows).
    let collection: String
    private let start: @Sendable () -> (next: () async throws -> SectionedUpdate<Row>?, setLimit: (Int) -> Void)

    /// The updates of `observation` (of `store`): section `S` becomes a section's key and title,
    /// record `R` a row, both against `now()` read once per delivery.
    init<S, R: Record>(store: Store, observation: SectionedQueryObservation<S, R>, now: @escaping @Sendable () -> Date,
                       section: @escaping @Sendable (S, Date) -> (key: String, title: String),
                       row: @escaping @Sendable (R, Date) -> Row) {
        self.store = store
        collection = R.collectionName
        start = {
            let base = observation.makeAsyncIterator()
            return (next: {
                guard let change = try await base.next() else { return nil }
                let now = now()
                let results = change.results
                // Nothing is made here: a section and its rows are made from the persistent results
                // when read, so a delivery costs what its reader reads (a change message: its k rows).
                let sections = FeedList(count: results.numberOfSections) { index in
                    let (key, title) = section(results.sectionKey(at: index), now)
                    let rows = FeedList(count: results.numberOfRows(inSection: index),
                                        element: { row(results[RowPath(section: index, row: $0)], now) },
                                        elements: { results.rows(inSection: index, $0).map { row($0, now) } })
                    return FeedSection(key: key, title: title, rows: rows)
                }
                var update = SectionedUpdate(sections: sections, changeset: change.changeset, isInitial: change.isInitial, position: change.position)
                update.window = change.window
                return update
            }, setLimit: { base.setLimit($0) })
        }
    }

    /// Starts observing.
    ///
    /// ```swift
    /// let iterator = viewModel.tweets.makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        let (next, setLimit) = start()
        return Iterator(next: next, setLimit: setLimit)
    }

    /// Produces the elements of ``SectionedUpdates``.
    ///
    /// ```swift
    /// let first = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        private let nextUpdate: () async throws -> SectionedUpdate<Row>?
        private let limitSetter: (Int) -> Void

        init(next: @escaping () async throws -> SectionedUpdate<Row>?, setLimit: @escaping (Int) -> Void) {
            nextUpdate = next
            limitSetter = setLimit
        }

        /// Grows or shrinks the window of updates made with a limit ("load older"): the next
        /// update, delivered without waiting for a commit, inserts the rows that enter at the
        /// window's end (or deletes those that leave).
        ///
        /// - Precondition: the updates were made with a limit.
        ///
        /// ```swift
        /// iterator.setLimit(200)
        /// let older = try await iterator.next()   // 100 more rows, as insertions
        /// ```
        public func setLimit(_ limit: Int) {
            limitSetter(limit)
        }

        /// The next update; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let update = try await iterator.next() { render(update) }
        /// ```
        public func next() async throws -> SectionedUpdate<Row>? {
            try await nextUpdate()
        }
    }
}

/// A timeline's live sections (``ListTimelineViewModel/tweets``).
///
/// ```swift
/// let updates: TimelineUpdates = viewModel.tweets
/// ```
public typealias TimelineUpdates = SectionedUpdates<TimelineRow>

extension TimelineUpdates {
    /// The sections of a tweet query (newest first), by day or in one section, with the fields
    /// ``TimelineRow`` shows as the only modifications; the first `limit` rows only when given.
    static func timeline(_ query: Query<Tweet>, in store: Store, sections: FeedSectioning, limit: Int?,
                         now: @escaping @Sendable () -> Date) -> TimelineUpdates {
        let query = query.limit(limit)
        switch sections {
        case .day:
            // Days newest first follow the tweets' newest-first order: a window reads and holds its rows only.
            let observation = store.observe(query, sectionedBy: { TimelineDay($0.created) }, sectionOrder: .descending,
                                            modificationsOf: TimelineRow.sourceFields, sectionsFollowQueryOrder: true)
            return TimelineUpdates(store: store, observation: observation, now: now,
                                   section: { day, now in (day.key, day.title(now: now)) }, row: { TimelineRow($0, now: $1) })
        case .none:
            return TimelineUpdates(store: store, observation: store.observe(query, sectionedBy: { _ in "all" }, modificationsOf: TimelineRow.sourceFields,
                                                                            sectionsFollowQueryOrder: true),
                                   now: now, section: { _, _ in ("all", "All") }, row: { TimelineRow($0, now: $1) })
        }
    }
}
