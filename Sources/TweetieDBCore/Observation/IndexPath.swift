/// The position of a row in sectioned results: a section index and a row index inside it.
///
/// Ordered by section, then row. (Inside TweetieDB this type shadows `Foundation.IndexPath`;
/// clients importing both can write `TweetieDB.IndexPath`.)
///
/// ```swift
/// let path = IndexPath(section: 2, row: 0)
/// print(path < IndexPath(section: 2, row: 1)) // true
/// ```
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The row index inside the section.
    public var row: Int

    /// Creates an index path.
    ///
    /// ```swift
    /// let path = IndexPath(section: 0, row: 3)
    /// ```
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then by row.
    ///
    /// ```swift
    /// print(IndexPath(section: 0, row: 9) < IndexPath(section: 1, row: 0)) // true
    /// ```
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// "[section, row]".
    ///
    /// ```swift
    /// print(IndexPath(section: 1, row: 2)) // [1, 2]
    /// ```
    public var description: String { "[\(section), \(row)]" }
}
