
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
    /// Reads the initial results: a closure made by ``Store/observe(_:sectionedBy:sectionOrder:modificationsOf:everyCommit:)``,
    /// which is inlinable, so that the loop runs specialized for the caller's record and section types.
    let initialResults: InitialResults
    /// Each row's key (its section, then its sort key), made in the same specialized context.
    let rowKey: RowKey

    @usableFromInline
    typealias RowKey = @Sendable (R, [UInt8], EncodedKey) -> SectionedRowKey<S>

    @usableFromInline
    typealias InitialResults = @Sendable (LiveQueryCore<R, SectionedRowKey<S>>) throws
        -> SectionedResults<OrderedSection<S>, SectionedRowKey<S>, R>

    @usableFromInline
    init(store: Store, query: Query<R>, fields: [ObservedField<R>]?, everyCommit: Bool, rowKey: @escaping RowKey, initialResults: @escaping InitialResults) {
        self.store = store
        self.query = query
        self.fields = fields
        self.everyCommit = everyCommit
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
        private let signal = ObservationSignal()
        private var subscription: UInt64?
        private var core: LiveQueryCore<R, SectionedRowKey<S>>?
        private var results: Results?
        /// The delivered window of ``results``, for a query with a limit.
        private var window: Window?
        /// A limit asked for by ``setLimit(_:)``, applied by the next call to ``next()``.
        private var pendingLimit: Int?
        /// The results and window last replaced, kept until the next call to ``next()`` so that
        /// releasing them (freeing every node the new version copied) happens after the delivery.
        private var retired: (Results?, Window?)
        private var finished = false

        init(_ observation: SectionedQueryObservation) {
            self.observation = observation
        }

        deinit {
            if let subscription { observation.store.notifier.unsubscribe(subscription) }
        }

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
            let info = window.map { ObservationWindow(limit: $0.limit, hasMore: $0.hasMore(in: results), entered: entered, left: left) }
            return SectionedQueryChange(results: SectionedQueryResults(base: window?.rows ?? results), changeset: changeset,
                                        isInitial: isInitial, position: core.lastPosition, window: info)
        }

        /// The next element; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let change = try await iterator.next() { … }
        /// ```
        public func next() async throws -> SectionedQueryChange<S, R>? {
            guard !finished else { return nil }
            retired = (nil, nil)
            do {
                guard let core, let current = results else { return try start() }
                var results = current
                if let limit = pendingLimit, var window {
                    pendingLimit = nil
                    let change = window.resize(to: limit, full: results)
                    retired.1 = self.window
                    self.window = window
                    return element(results, change.changeset, entered: change.entered, left: change.left, isInitial: false, core)
                }
                while true {
                    guard await signal.wait() else {
                        finish()
                        return nil
                    }
                    switch try core.delta(oldValue: { results.rows.value(for: $0) }) {
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
            let signal = self.signal
            // Subscribe before reading, so that no commit can slip between the read and the subscription.
            subscription = observation.store.notifier.subscribe { signal.signal() }
            let core = try LiveQueryCore<R, SectionedRowKey<S>>(store: observation.store, query: observation.query, fields: observation.fields,
                                                               keyOf: observation.rowKey)
            self.core = core
            let results = try observation.initialResults(core)
            self.results = results
            if let limit = pendingLimit ?? observation.query.limitCount {
                pendingLimit = nil
                window = Window(limit: limit, of: results)
            }
            return element(results, SectionedChangeset(), isInitial: true, core)
        }

        private func finish() {
            finished = true
            if let subscription { observation.store.notifier.unsubscribe(subscription) }
            subscription = nil
            core = nil
            results = nil
            window = nil
            retired = (nil, nil)
        }
    }
}

extension Store {
    /// Observes `query` grouped into sections by `sectionOf` (for example the tweet's day),
    /// sections ordered by their key in `sectionOrder`, rows in the query's order.
    /// `modificationsOf` and `everyCommit` are as for ``observe(_:modificationsOf:everyCommit:)``.
    ///
    /// A query with a limit is observed through a window: each element holds the first `limit`
    /// rows and says whether more follow (``SectionedQueryChange/window``); the iterator's
    /// ``SectionedQueryObservation/Iterator/setLimit(_:)`` grows or shrinks it. A query with an
    /// offset is refused: a sectioned observation starts at the first row.
    ///
    /// ```swift
    /// let observation = store.observe(Query<Tweet>().sorted(byIndex: "created"),
    ///                                 sectionedBy: { Day(date: $0.created) }, sectionOrder: .descending)
    /// ```
    @inlinable
    public func observe<R: Record, S: Hashable & Comparable & Sendable>(
        _ query: Query<R>, sectionedBy sectionOf: @escaping @Sendable (R) -> S, sectionOrder: SortOrder = .ascending,
        modificationsOf fields: [ObservedField<R>]? = nil, everyCommit: Bool = false
    ) -> SectionedQueryObservation<S, R> {
        SectionedQueryObservation(store: self, query: query, fields: fields,
                                  everyCommit: everyCommit, rowKey: { [descending = sectionOrder == .descending] record, _, sortKey in
            SectionedRowKey(section: sectionOf(record), sectionsDescending: descending, row: sortKey)
        }) { core in
            var rows = try core.initialRows()
            return SectionedResults(ascendingKeys: &rows.keys, values: &rows.values) { OrderedSection(key: $0.section, descending: $0.sectionsDescending) }
        }
    }
}
