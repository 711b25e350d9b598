/// How one record changed in a commit, seen from a sorted query's results.
///
/// A live query turns each commit's changed records into `RowChange`s and passes them to
/// ``RankedTree/applying(_:)``. Rows not mentioned are unchanged (same key, same value).
///
/// - ``oldKey``: the row's position key in the old results, `nil` if it was not in them.
/// - ``newKey`` / ``newValue``: the row's key and value in the new results, `nil` if it is not
///   in them (deleted, or filtered out). `newValue` must be non-`nil` whenever `newKey` is.
/// - ``contentChanged``: the record's stored bytes changed. For a row that keeps its key and is
///   not moved this decides between "modified" and "nothing to report"; pass `false` only when
///   the new value equals the old one.
///
/// ```swift
/// let edit = RowChange(oldKey: 10, newKey: 10, newValue: "edited", contentChanged: true)
/// let insert = RowChange<Int, String>(oldKey: nil, newKey: 3, newValue: "new", contentChanged: true)
/// let delete = RowChange<Int, String>(oldKey: 7, newKey: nil, newValue: nil, contentChanged: true)
/// ```
@usableFromInline
package struct RowChange<Key, Value> {
    /// The row's key in the old results, or `nil` if it was not in them.
    @usableFromInline package var oldKey: Key?
    /// The row's key in the new results, or `nil` if it is not in them.
    @usableFromInline package var newKey: Key?
    /// The row's value in the new results (required when ``newKey`` is set).
    @usableFromInline package var newValue: Value?
    /// Whether the record's stored contents changed.
    @usableFromInline package var contentChanged: Bool

    /// Creates a row change.
    ///
    /// ```swift
    /// let change = RowChange(oldKey: 2, newKey: 9, newValue: "moved", contentChanged: true)
    /// ```
    @usableFromInline package init(oldKey: Key?, newKey: Key?, newValue: Value?, contentChanged: Bool) {
        self.oldKey = oldKey
        self.newKey = newKey
        self.newValue = newValue
        self.contentChanged = contentChanged
    }
}

extension RowChange: Sendable where Key: Sendable, Value: Sendable {}
