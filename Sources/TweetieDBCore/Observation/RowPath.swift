import Foundation

/// The position of a row in sectioned results: a section index and a row index inside it.
///
/// Ordered by section, then row. It is not Foundation's `IndexPath`, so a file that imports both
/// TweetieDB and Foundation (or UIKit) names each without qualifying it; `IndexPath(path)`
/// converts one for a table view.
///
/// ```swift
/// let path = RowPath(section: 2, row: 0)
/// print(path < RowPath(section: 2, row: 1)) // true
/// ```
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The row index inside the section.
    public var row: Int

    /// Creates a row path.
    ///
    /// ```swift
    /// let path = RowPath(section: 0, row: 3)
    /// ```
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders by section, then by row.
    ///
    /// ```swift
    /// print(RowPath(section: 0, row: 9) < RowPath(section: 1, row: 0)) // true
    /// ```
    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// "[section, row]".
    ///
    /// ```swift
    /// print(RowPath(section: 1, row: 2)) // [1, 2]
    /// ```
    public var description: String { "[\(section), \(row)]" }
}

extension IndexPath {
    /// The index path of a table view's row: `[section, row]`, the same as UIKit's
    /// `IndexPath(row:section:)`.
    ///
    /// ```swift
    /// let paths = changeset.rowDeletions.map(IndexPath.init)   // for deleteRows(at:with:)
    /// ```
    public init(_ path: RowPath) {
        self.init(indexes: [path.section, path.row])
    }
}
