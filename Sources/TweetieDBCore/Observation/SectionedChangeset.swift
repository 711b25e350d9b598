/// The exact difference between two versions of sectioned query results, in the form a
/// `UITableView` batch update (`performBatchUpdates`) expects.
///
/// Sections are identified by their section key. Old-space lists (deletions, move sources,
/// `rowModificationsInOld`) use indices of the OLD results; new-space lists (insertions, move
/// targets, `rowModificationsInNew`) use indices of the NEW results.
///
/// ## Application semantics (the UIKit batch-update model)
///
/// 1. Remove the rows at `rowDeletions ∪ rowMoves.from` from their old sections.
/// 2. Remove the sections at `sectionDeletions ∪ sectionMoves.from` (old indices). A deleted
///    section disappears with all its rows; a moved section keeps its remaining rows.
/// 3. Build the new section list: new index `s` is the inserted section with all its new rows
///    if `s ∈ sectionInsertions` (UIKit loads them from the data source), the moved section if
///    `s` is some `sectionMoves.to`, and otherwise the next remaining old section in old order.
/// 4. Insert the rows `new[p]` for every `p` in `rowInsertions ∪ rowMoves.to`, in ascending
///    index-path order.
/// 5. For every `j`, replace the row at `rowModificationsInNew[j]` by its new contents (it is
///    the row that was at `rowModificationsInOld[j]`).
///
/// The result equals the new results. UIKit consistency rules hold: rows of a deleted section
/// are not listed in `rowDeletions`, rows of an inserted section are not listed in
/// `rowInsertions`, no row moves out of a deleted or into an inserted section (such a row is
/// expressed as an insertion or deletion, or omitted), a moved row is never reloaded, and for
/// each surviving section `rows after = rows before − deleted − moved out + inserted + moved in`.
/// ``validate(oldRowCounts:newRowCounts:)`` checks all of this.
///
/// ```swift
/// // old: [[a, b], [c]]   new: [[a], [x, c]]  (b deleted, x inserted before c)
/// let changeset = SectionedChangeset(
///     rowDeletions: [RowPath(section: 0, row: 1)],
///     rowInsertions: [RowPath(section: 1, row: 0)])
/// let new = [["a"], ["x", "c"]]
/// let result = changeset.apply(to: [["a", "b"], ["c"]], insertedSection: { new[$0] }) { new[$0.section][$0.row] }
/// print(result) // [["a"], ["x", "c"]]
/// ```
public struct SectionedChangeset: Sendable, Hashable {
    /// Removed sections, OLD section indices, ascending.
    public var sectionDeletions: [Int]
    /// Added sections, NEW section indices, ascending.
    public var sectionInsertions: [Int]
    /// Sections that changed place relative to the other surviving sections, ascending by `from`.
    /// Always empty for key-ordered sections, but computed.
    public var sectionMoves: [Move]
    /// Removed rows of surviving sections, OLD row paths, ascending.
    public var rowDeletions: [RowPath]
    /// Added rows of sections that existed before, NEW row paths, ascending.
    public var rowInsertions: [RowPath]
    /// Modified rows that did not move, OLD row paths, ascending.
    public var rowModificationsInOld: [RowPath]
    /// The same modified rows, NEW row paths, in the same order.
    public var rowModificationsInNew: [RowPath]
    /// Rows that move (between surviving sections or inside one), ascending by `from`.
    public var rowMoves: [RowMove]

    /// Creates a sectioned changeset; every list defaults to empty.
    ///
    /// ```swift
    /// let changeset = SectionedChangeset(sectionInsertions: [0])
    /// ```
    public init(
        sectionDeletions: [Int] = [],
        sectionInsertions: [Int] = [],
        sectionMoves: [Move] = [],
        rowDeletions: [RowPath] = [],
        rowInsertions: [RowPath] = [],
        rowModificationsInOld: [RowPath] = [],
        rowModificationsInNew: [RowPath] = [],
        rowMoves: [RowMove] = []
    ) {
        self.sectionDeletions = sectionDeletions
        self.sectionInsertions = sectionInsertions
        self.sectionMoves = sectionMoves
        self.rowDeletions = rowDeletions
        self.rowInsertions = rowInsertions
        self.rowModificationsInOld = rowModificationsInOld
        self.rowModificationsInNew = rowModificationsInNew
        self.rowMoves = rowMoves
    }

    /// Whether the changeset changes nothing.
    public var isEmpty: Bool {
        sectionDeletions.isEmpty && sectionInsertions.isEmpty && sectionMoves.isEmpty
            && rowDeletions.isEmpty && rowInsertions.isEmpty && rowModificationsInOld.isEmpty && rowMoves.isEmpty
    }

    /// The same update without moves: a row move becomes a row deletion plus a row insertion; a
    /// section move becomes a section deletion plus a section insertion, and the row changes
    /// inside that section are dropped (UIKit reloads the whole inserted section). A row moving
    /// out of (into) such a section keeps only its insertion (deletion).
    ///
    /// ```swift
    /// let move = RowMove(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 3))
    /// let plain = SectionedChangeset(rowMoves: [move]).withoutMoves()
    /// print(plain.rowDeletions, plain.rowInsertions) // [[0, 0]] [[0, 3]]
    /// ```
    public func withoutMoves() -> SectionedChangeset {
        let movedOld = Set(sectionMoves.map(\.from))
        let movedNew = Set(sectionMoves.map(\.to))
        var deletions = rowDeletions.filter { !movedOld.contains($0.section) }
        var insertions = rowInsertions.filter { !movedNew.contains($0.section) }
        for move in rowMoves {
            if !movedOld.contains(move.from.section) { deletions.append(move.from) }
            if !movedNew.contains(move.to.section) { insertions.append(move.to) }
        }
        var modificationsInOld: [RowPath] = []
        var modificationsInNew: [RowPath] = []
        for (old, new) in zip(rowModificationsInOld, rowModificationsInNew) where !movedOld.contains(old.section) {
            modificationsInOld.append(old)
            modificationsInNew.append(new)
        }
        return SectionedChangeset(
            sectionDeletions: SortedIndices.merge(sectionDeletions, sectionMoves.map(\.from)),
            sectionInsertions: SortedIndices.merge(sectionInsertions, sectionMoves.map(\.to).sorted()),
            sectionMoves: [],
            rowDeletions: deletions.sorted(),
            rowInsertions: insertions.sorted(),
            rowModificationsInOld: modificationsInOld,
            rowModificationsInNew: modificationsInNew,
            rowMoves: []
        )
    }
}
