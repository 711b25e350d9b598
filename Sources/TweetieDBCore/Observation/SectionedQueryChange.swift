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
