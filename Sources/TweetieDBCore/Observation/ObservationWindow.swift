/// The window of a sectioned observation of a query with a limit: ``SectionedQueryChange/results``
/// are the first ``limit`` rows in the order they are delivered (sections in their order, rows in
/// the query's order inside each), with their sections. When the sections follow the query's
/// sort, as a timeline's days follow its newest-first order, these are the query's first rows.
///
/// Rows cross the window's end when rows before them are inserted or deleted, or when the limit
/// changes (``SectionedQueryObservation/Iterator/setLimit(_:)``). The changeset treats them as
/// any other row: a row that enters is an insertion (or part of an inserted section), a row that
/// leaves a deletion (or part of a deleted section). ``entered`` and ``left`` name those of them
/// that the commit did not change, so that a renderer can tell "scrolled out" from "deleted"; a
/// row that the commit changed is a plain insertion, deletion or move, wherever it went.
///
/// ```swift
/// // Newest first (the "created" index is descending), as the days are.
/// let observation = store.observe(Query<Tweet>().sorted(byIndex: "created").limit(100),
///                                 sectionedBy: { Day($0.created) }, sectionOrder: .descending,
///                                 sectionsFollowQueryOrder: true)
/// for try await change in observation {
///     print(change.window!.hasMore, change.window!.entered)
/// }
/// ```
public struct ObservationWindow: Sendable, Hashable {
    /// The most rows the window holds.
    public let limit: Int
    /// Whether the query's results hold rows after the window's last one.
    public let hasMore: Bool
    /// New paths of rows, unchanged by the commit, that came into the window from beyond its end;
    /// empty for an initial element.
    public let entered: [RowPath]
    /// Old paths of rows, unchanged by the commit, that went beyond the window's end.
    public let left: [RowPath]
}
