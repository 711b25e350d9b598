/// A row that moves from an index in the old results to an index in the new results.
///
/// ```swift
/// let move = Move(from: 4, to: 0) // old row 4 becomes new row 0
/// ```
public struct Move: Sendable, Hashable {
    /// The row's index in the old results.
    public var from: Int
    /// The row's index in the new results.
    public var to: Int

    /// Creates a move from an old index to a new index.
    ///
    /// ```swift
    /// let move = Move(from: 1, to: 3)
    /// ```
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}
