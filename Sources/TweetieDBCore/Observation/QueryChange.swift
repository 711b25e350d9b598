/// One element of a ``QueryObservation``: the results, and how they differ from the previous
/// element's results.
///
/// ```swift
/// for try await change in store.observe(query) {
///     if change.isInitial { tableView.reloadData() } else { tableView.apply(change.changeset) }
/// }
/// ```
public struct QueryChange<R: Record>: Sendable {
    /// The results after the change.
    public let results: QueryResults<R>
    /// How to go from the previous element's results to ``results``; empty for an initial element.
    public let changeset: Changeset
    /// Whether this element starts from scratch: the first element, or a fresh start after the
    /// observer fell behind the change log's retention bound. Reload instead of animating.
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
}
