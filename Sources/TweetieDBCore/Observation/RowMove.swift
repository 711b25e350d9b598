/// A row that moves from a row path in the old sectioned results to one in the new results.
///
/// ```swift
/// let move = RowMove(from: RowPath(section: 0, row: 4), to: RowPath(section: 1, row: 0))
/// ```
public struct RowMove: Sendable, Hashable {
    /// The row's row path in the old results.
    public var from: RowPath
    /// The row's row path in the new results.
    public var to: RowPath

    /// Creates a row move.
    ///
    /// ```swift
    /// let move = RowMove(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 2))
    /// ```
    public init(from: RowPath, to: RowPath) {
        self.from = from
        self.to = to
    }
}
