/// A row that moves from an index path in the old sectioned results to one in the new results.
///
/// ```swift
/// let move = RowMove(from: IndexPath(section: 0, row: 4), to: IndexPath(section: 1, row: 0))
/// ```
public struct RowMove: Sendable, Hashable {
    /// The row's index path in the old results.
    public var from: IndexPath
    /// The row's index path in the new results.
    public var to: IndexPath

    /// Creates a row move.
    ///
    /// ```swift
    /// let move = RowMove(from: IndexPath(section: 0, row: 0), to: IndexPath(section: 0, row: 2))
    /// ```
    public init(from: IndexPath, to: IndexPath) {
        self.from = from
        self.to = to
    }
}
