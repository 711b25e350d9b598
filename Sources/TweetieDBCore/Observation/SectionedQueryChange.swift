/// One element of a ``SectionedQueryObservation``: sectioned results and the sectioned changeset
/// from the previous element.
///
/// ```swift
/// for try await change in store.observe(query, sectionedBy: { Day($0.created) }) {
///     print(change.results.numberOfSections, change.changeset.rowInsertions)
/// }
/// ```
public struct SectionedQueryChange<S: Hashable & Comparable & Sendable, R: Record>: Sendable {
    /// The sectioned results after the change.
    public let results: SectionedQueryResults<S, R>
    /// Section and row changes from the previous element; empty for an initial element.
    public let changeset: SectionedChangeset
    /// Whether this element starts from scratch (first element, or after falling behind the log).
    ///
    /// ```swift
    /// if change.isInitial { reload() }
    /// ```
    public let isInitial: Bool
    /// The history position the results reflect: a change-log sequence and the commit that wrote
    /// it (see ``ChangeLogPosition``), to resume from.
    public let position: ChangeLogPosition
    /// The change-log sequence number the results reflect.
    public var sequence: UInt64 { position.sequence }
    /// For an observation of a query with a limit: the window's limit, whether more rows follow
    /// it, and which rows crossed its end; `nil` for an observation without a limit.
    ///
    /// ```swift
    /// if change.window?.hasMore == true { showLoadOlder() }
    /// ```
    public let window: ObservationWindow?
}

/// The window of a sectioned observation of a query with a limit: ``SectionedQueryChange/results``
/// are the first ``limit`` rows in the order they are delivered (sections in their order, rows in
/// the query's order inside each), with their sections. When the sections follow the query's
/// sort, as a timeline's days follow its newest-first order, these are the query's first rows.
///
/// Rows cross the window's end when rows before them are inserted or deleted, or when the limit
/// changes (``SectionedQueryObservation/Iterator/setLimit(_:)``). The changeset treats them as
/// any other row: a row that enters is an insertion (or part of an inserted section), a row that
/// leaves a deletion (or part of a deleted section). ``entered`` and ``left`` name those of them
/// that are still in the query's results, so that a renderer can tell "scrolled out" from
/// "deleted".
///
/// ```swift
/// let observation = store.observe(Query<Tweet>().sorted(byIndex: "created", .descending).limit(100),
///                                 sectionedBy: { Day($0.created) }, sectionOrder: .descending)
/// for try await change in observation {
///     print(change.window!.hasMore, change.window!.entered)
/// }
/// ```
public struct ObservationWindow: Sendable, Hashable {
    /// The most rows the window holds.
    public let limit: Int
    /// Whether the query's results hold rows after the window's last one.
    public let hasMore: Bool
    /// New paths of rows that came into the window from beyond its end; empty for an initial element.
    public let entered: [RowPath]
    /// Old paths of rows that went beyond the window's end and are still in the results.
    public let left: [RowPath]
}
