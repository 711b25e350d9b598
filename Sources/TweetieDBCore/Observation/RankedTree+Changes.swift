extension RankedTree {
    /// Applies one commit's row changes and returns the new results with the exact changeset
    /// from `self` to them, in O(k log n + k log k) for k changes. `self` is not modified and
    /// shares all untouched nodes with the returned tree.
    ///
    /// Rows not mentioned in `changes` are unchanged. Classification (see ``Changeset`` for how
    /// the result is applied):
    /// - old key only → deletion; new key only → insertion;
    /// - same key → nothing, or a modification when `contentChanged`;
    /// - different key → stays in place as a modification when its order relative to the
    ///   unchanged rows and to the other rows kept in place is preserved (the largest such set is
    ///   chosen); otherwise a move. Rows merely shifted by other inserts/deletes never move, and a
    ///   moved row is never also a modification.
    ///
    /// - Precondition: each old key is present and named by one change only; a new key is named
    ///   once and is not the key of a row left out of `changes`; `newValue` accompanies `newKey`.
    ///
    /// ```swift
    /// let old = RankedTree(sortedUniqueElements: [(key: 1, value: "a"), (key: 2, value: "b"), (key: 3, value: "c")])
    /// let (new, changeset) = old.applying([
    ///     RowChange(oldKey: 3, newKey: 0, newValue: "c", contentChanged: false), // c moves to the top
    ///     RowChange(oldKey: 2, newKey: nil, newValue: nil, contentChanged: true), // b is deleted
    /// ])
    /// print(new.map(\.value))                 // ["c", "a"]
    /// print(changeset.deletions, changeset.moves) // [1] [Move(from: 2, to: 0)]
    /// ```
    @usableFromInline package func applying(_ changes: [RowChange<Key, Value>]) -> (tree: RankedTree, changeset: Changeset) {
        let resolution = ChangesetBuilder.resolve(self, changes, mustMove: nil)
        return (resolution.tree, resolution.changeset)
    }
}
