
/// The live results of a query grouped into sections, as an `AsyncSequence`.
///
/// Sections are identified by a key computed from each record and ordered by it; rows keep the
/// query's order inside their section. Every element after the first carries a
/// ``SectionedChangeset`` with UITableView batch-update semantics.
///
/// ```swift
/// let days = store.observe(Query<Tweet>().sorted(byIndex: "created"),
///                          sectionedBy: { Calendar.current.startOfDay(for: $0.created) },
///                          sectionOrder: .descending)
/// for try await change in days { apply(change.changeset) }
/// ```
public struct SectionedQueryObservation<S: Hashable & Comparable & Sendable, R: Record>: AsyncSequence, Sendable {
    /// Each element: sectioned results and changeset.
    public typealias Element = SectionedQueryChange<S, R>
    /// Errors from reading the store.
    public typealias Failure = any Error

    let store: Store
    let query: Query<R>
    let fields: [ObservedField<R>]?
    /// Whether commits that leave the results unchanged yield an element too.
    let everyCommit: Bool
    /// Whether the caller promised that sections follow the query's order (see
    /// ``Store/observe(_:sectionedBy:sectionOrder:modificationsOf:everyCommit:sectionsFollowQueryOrder:)``).
    let sectionsFollowQueryOrder: Bool
    /// Reads the initial results: a closure made by ``Store/observe(_:sectionedBy:sectionOrder:modificationsOf:everyCommit:sectionsFollowQueryOrder:)``,
    /// which is inlinable, so that the loop runs specialized for the caller's record and section types.
    let initialResults: InitialResults
    /// Each row's key (its section, then its sort key), made in the same specialized context.
    let rowKey: RowKey

    @usableFromInline
    typealias RowKey = @Sendable (R, EncodedKey) -> SectionedRowKey<S>

    @usableFromInline
    typealias InitialResults = @Sendable (LiveQueryCore<R, SectionedRowKey<S>>) throws
        -> SectionedResults<OrderedSection<S>, SectionedRowKey<S>, R>

    @usableFromInline
    init(store: Store, query: Query<R>, fields: [ObservedField<R>]?, everyCommit: Bool, sectionsFollowQueryOrder: Bool,
         rowKey: @escaping RowKey, initialResults: @escaping InitialResults) {
        self.store = store
        self.query = query
        self.fields = fields
        self.everyCommit = everyCommit
        self.sectionsFollowQueryOrder = sectionsFollowQueryOrder
        self.rowKey = rowKey
        self.initialResults = initialResults
    }

    /// Starts observing.
    ///
    /// ```swift
    /// var iterator = observation.makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator { Iterator(self) }

    /// Produces the elements of a ``SectionedQueryObservation``.
    ///
    /// ```swift
    /// let change = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        typealias Results = SectionedResults<OrderedSection<S>, SectionedRowKey<S>, R>
        typealias Window = SectionedResultsWindow<OrderedSection<S>, SectionedRowKey<S>, R>
        private let observation: SectionedQueryObservation
        private let loop: ObservationLoop<R, SectionedRowKey<S>>
        private var results: Results?
        /// The delivered window of ``results``, for a query with a limit.
        private var window: Window?
        /// A limit asked for by ``setLimit(_:)``, applied by the next call to ``next()``.
        private var pendingLimit: Int?
        /// For a window that holds its rows only: its limit and whether more rows follow it
        /// (``results`` are then the window itself, and ``window`` is `nil`).
        private var bounded: (limit: Int, hasMore: Bool)?
        /// The results and window last replaced, kept until the next call to ``next()`` so that
        /// releasing them (freeing every node the new version copied) happens after the delivery.
        private var retired: (Results?, Window?)

        init(_ observation: SectionedQueryObservation) {
            self.observation = observation
            loop = ObservationLoop(store: observation.store)
        }

        /// The rows this iteration keeps in memory: its results' and the core's key table's, the
        /// larger (for tests: a window that holds only its rows keeps at most its limit).
        var heldRowCount: Int { Swift.max(results?.rows.count ?? 0, loop.core?.keys.count ?? 0) }

        /// Changes the window of an observation of a query with a limit, for example to load
        /// older rows: the next element, returned without waiting for a commit, carries the rows
        /// that enter (or leave) at the window's end.
        ///
        /// - Precondition: the observed query has a limit, and `limit` is not negative.
        ///
        /// ```swift
        /// iterator.setLimit(200)                      // 100 more rows
        /// let grown = try await iterator.next()       // their insertions
        /// ```
        public func setLimit(_ limit: Int) {
            precondition(observation.query.limitCount != nil, "setLimit(_:) needs an observation of a query with a limit")
            precondition(limit >= 0, "a window's limit must not be negative, got \(limit)")
            pendingLimit = limit
        }

        /// The element delivering `results`, through the window when there is one.
        private func element(_ results: Results, _ changeset: SectionedChangeset, entered: [RowPath] = [], left: [RowPath] = [],
                             isInitial: Bool, _ core: LiveQueryCore<R, SectionedRowKey<S>>) -> SectionedQueryChange<S, R> {
            let info = bounded.map { ObservationWindow(limit: $0.limit, hasMore: $0.hasMore, entered: entered, left: left) }
                ?? window.map { ObservationWindow(limit: $0.limit, hasMore: $0.hasMore(in: results), entered: entered, left: left) }
            return SectionedQueryChange(results: SectionedQueryResults(base: window?.rows ?? results), changeset: changeset,
                                        isInitial: isInitial, position: core.lastPosition, window: info)
        }

        /// The next element; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let change = try await iterator.next() { … }
        /// ```
        public func next() async throws -> SectionedQueryChange<S, R>? {
            guard !loop.finished else { return nil }
            retired = (nil, nil)
            do {
                guard let core = loop.core, let current = results else { return try start() }
                if bounded != nil { return try await nextBounded(core) }
                var results = current
                if let limit = pendingLimit, var window {
                    pendingLimit = nil
                    let change = window.resize(to: limit, full: results)
                    retired.1 = self.window
                    self.window = window
                    return element(results, change.changeset, entered: change.entered, left: change.left, isInitial: false, core)
                }
                while true {
                    guard let delta = try await loop.nextDelta(oldValue: { results.rows.value(for: $0) }) else {
                        finish()
                        return nil
                    }
                    switch delta {
                    case .unchanged:
                        if observation.everyCommit { return element(results, SectionedChangeset(), isInitial: false, core) }
                        continue
                    case .reset:
                        results = try observation.initialResults(core)
                        retired = (self.results, self.window)
                        self.results = results
                        window = window.map { Window(limit: $0.limit, of: results) }
                        return element(results, SectionedChangeset(), isInitial: true, core)
                    case .changes(let changes, _):
                        let hadMore = window?.hasMore(in: results)
                        let (next, fullChangeset) = results.applying(changes)
                        results = next
                        retired = (self.results, self.window)
                        self.results = next
                        var change = Window.Change(changeset: fullChangeset, entered: [], left: [])
                        if var window {
                            change = window.apply(changes, full: next)
                            self.window = window
                        }
                        if change.changeset.isEmpty && hadMore == window?.hasMore(in: next) && !observation.everyCommit { continue }
                        return element(next, change.changeset, entered: change.entered, left: change.left, isInitial: false, core)
                    }
                }
            } catch {
                finish()
                throw error
            }
        }

        private func start() throws -> SectionedQueryChange<S, R>? {
            guard observation.query.offset == 0 else {
                throw StoreError(.invalidArgument, operation: "observe", database: R.collectionName, path: observation.store.path,
                                    message: "a sectioned observation starts at the first row; remove the query's offset (a limit is its window)")
            }
            let core = try loop.start {
                try LiveQueryCore<R, SectionedRowKey<S>>(store: observation.store, query: observation.query, fields: observation.fields,
                                                         keyOf: observation.rowKey)
            }
            if observation.sectionsFollowQueryOrder, core.scan.walkIsSorted, let limit = pendingLimit ?? observation.query.limitCount {
                pendingLimit = nil
                return try readBounded(core, limit: limit, force: true, from: nil)
            }
            let results = try observation.initialResults(core)
            self.results = results
            if let limit = pendingLimit ?? observation.query.limitCount {
                pendingLimit = nil
                window = Window(limit: limit, of: results)
            }
            return element(results, SectionedChangeset(), isInitial: true, core)
        }

        /// The next element of a window that holds its rows only: a new limit, or the next commit
        /// that names a record of the collection, reads the window again (its rows and the change
        /// log in one snapshot, O(limit)); the changeset is the difference between the two reads.
        private func nextBounded(_ core: LiveQueryCore<R, SectionedRowKey<S>>) async throws -> SectionedQueryChange<S, R>? {
            while true {
                var limit = bounded!.limit
                let force = pendingLimit != nil
                if let newLimit = pendingLimit {
                    pendingLimit = nil
                    limit = newLimit
                } else if !(await loop.waitForCommit()) {
                    finish()
                    return nil
                }
                // From the results as last read: a read that delivers nothing may still have taken new keys.
                if let change = try readBounded(core, limit: limit, force: force, from: results) { return change }
            }
        }

        /// Reads the window of `limit` rows and delivers it: from scratch when `old` is `nil` or the
        /// log no longer covers the changes, else as the changeset from `old`; `nil` when nothing
        /// observed changed.
        private func readBounded(_ core: LiveQueryCore<R, SectionedRowKey<S>>, limit: Int, force: Bool,
                                 from old: Results?) throws -> SectionedQueryChange<S, R>? {
            guard let read = try core.readWindow(limit: limit, force: force, fresh: old == nil) else {
                guard observation.everyCommit, let old else { return nil }
                return element(old, SectionedChangeset(), isInitial: false, core)
            }
            let hadMore = bounded?.hasMore
            bounded = (limit, read.hasMore)
            var newRows: [PrimaryKeyBytes: (key: SectionedRowKey<S>, value: R)] = [:]
            for row in read.rows { newRows[PrimaryKeyBytes(row.primaryKey)] = (row.key, row.value) }
            guard let old, let touched = read.touched else {
                var keys = read.rows.map(\.key), values = read.rows.map(\.value)
                let results = Results(ascendingKeys: &keys, values: &values) { $0.orderedSection }
                core.keys = newRows.mapValues(\.key)
                retired.0 = self.results
                self.results = results
                return element(results, SectionedChangeset(), isInitial: true, core)
            }
            // The two reads' difference: rows gone, rows new, rows whose key or (when rewritten) contents changed.
            var changes: [RowChange<SectionedRowKey<S>, R>] = []
            var entered: [SectionedRowKey<S>] = []
            var left: [SectionedRowKey<S>] = []
            for (primaryKey, oldKey) in core.keys where newRows[primaryKey] == nil {
                changes.append(RowChange(oldKey: oldKey, newKey: nil, newValue: nil, contentChanged: true))
                if touched[primaryKey] == nil { left.append(oldKey) }
            }
            for (primaryKey, row) in newRows {
                let oldKey = core.keys[primaryKey]
                var changed = touched[primaryKey] ?? false
                if changed, let isModified = core.isModified, let oldKey, let oldValue = old.rows.value(for: oldKey) {
                    changed = isModified(oldValue, row.value)
                }
                if oldKey == nil, touched[primaryKey] == nil { entered.append(row.key) }
                if oldKey == row.key && !changed { continue }
                changes.append(RowChange(oldKey: oldKey, newKey: row.key, newValue: row.value, contentChanged: oldKey == nil || changed))
            }
            core.keys = newRows.mapValues(\.key)
            let (next, changeset) = old.applying(changes)
            retired.0 = self.results
            self.results = next
            // A new limit always brings an element (setLimit(_:) promises one), even an empty one.
            if changeset.isEmpty && hadMore == read.hasMore && !observation.everyCommit && !force { return nil }
            return element(next, changeset, entered: entered.compactMap { next.rowPath(of: $0) }.sorted(),
                           left: left.compactMap { old.rowPath(of: $0) }.sorted(), isInitial: false, core)
        }

        private func finish() {
            loop.finish()
            results = nil
            window = nil
            bounded = nil
            retired = (nil, nil)
        }
    }
}

extension Store {
    /// Observes `query` grouped into sections by `sectionOf` (for example the tweet's day),
    /// sections ordered by their key in `sectionOrder`, rows in the query's order. A large start
    /// calls `sectionOf` on two threads at once, as a large fetch decodes records.
    /// `modificationsOf` and `everyCommit` are as for ``observe(_:modificationsOf:everyCommit:)``.
    ///
    /// A query with a limit is observed through a window: each element holds the first `limit`
    /// rows and says whether more follow (``SectionedQueryChange/window``); the iterator's
    /// ``SectionedQueryObservation/Iterator/setLimit(_:)`` grows or shrinks it. A query with an
    /// offset is refused: a sectioned observation starts at the first row.
    ///
    /// `sectionsFollowQueryOrder` is a promise: no record's section comes before the section of a
    /// record earlier in the query's order (a timeline's days follow its newest-first order; one
    /// section always does). With it, a window over a walk in the query's order (a sort by an
    /// index, or by primary key) holds and reads its rows only: its start, its memory and each
    /// commit that names a record of the collection cost O(limit), whatever the number of
    /// matching records. (The walk reads past the records a closure filter rejects: a filter that
    /// rejects most of the walk costs those records too; an index filter costs nothing.) Without it, or without such a walk, the observation keeps every matching
    /// record and the window follows them in O(k log n). A broken promise that a read can see
    /// throws.
    ///
    /// ```swift
    /// let observation = store.observe(Query<Tweet>().sorted(byIndex: "created"),
    ///                                 sectionedBy: { Day(date: $0.created) }, sectionOrder: .descending)
    /// ```
    @inlinable
    public func observe<R: Record, S: Hashable & Comparable & Sendable>(
        _ query: Query<R>, sectionedBy sectionOf: @escaping @Sendable (R) -> S, sectionOrder: SortOrder = .ascending,
        modificationsOf fields: [ObservedField<R>]? = nil, everyCommit: Bool = false, sectionsFollowQueryOrder: Bool = false
    ) -> SectionedQueryObservation<S, R> {
        SectionedQueryObservation(store: self, query: query, fields: fields, everyCommit: everyCommit,
                                  sectionsFollowQueryOrder: sectionsFollowQueryOrder, rowKey: { [descending = sectionOrder == .descending] record, sortKey in
            SectionedRowKey(section: sectionOf(record), sectionsDescending: descending, row: sortKey)
        }) { core in
            try core.initialRows { keys, values in SectionedResults(ascendingKeys: &keys, values: &values) { $0.orderedSection } }
        }
    }
}
