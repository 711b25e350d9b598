/// The exact difference between two versions of a query's flat results, in the form a
/// `UITableView` / `UICollectionView` batch update expects.
///
/// ## Application semantics
///
/// The lists describe one batch (`performBatchUpdates`): deletions and reloads use **old**
/// indices, insertions use **new** indices, moves go old → new. Applying a changeset to the old
/// results means, in this order:
///
/// 1. Remove the rows at `deletions ∪ moves.map(\.from)` (old indices, all at once).
/// 2. Insert the rows `new[i]` for every `i` in `insertions ∪ moves.map(\.to)`, in ascending
///    order of `i` (each at index `i` of the array being built).
/// 3. For every `j`, replace the row at `modificationsInNew[j]` by `new[modificationsInNew[j]]`
///    (that row is the one that was at `modificationsInOld[j]` in the old results).
///
/// The result equals the new results exactly. In UIKit terms: `deleteRows(at: deletions)`,
/// `insertRows(at: insertions)`, `moveRow(at: from, to: to)` for each move and
/// `reloadRows(at: modificationsInOld)`, all inside one `performBatchUpdates` (or use
/// `reconfigureRows(at:)` with `modificationsInNew` after the batch). A moved row is never also
/// listed as modified: its new contents arrive with the move (UIKit forbids reloading a row that
/// moves). Rows not mentioned keep their contents and are only shifted by the other changes.
///
/// Invariants: every list is strictly ascending (`moves` by `from`); an old index appears in at
/// most one of `deletions`, `moves.from`, `modificationsInOld`; a new index in at most one of
/// `insertions`, `moves.to`, `modificationsInNew`. ``validate(oldCount:newCount:)`` checks them.
///
/// ```swift
/// // old: [a, b, c]  new: [c, a, x]  (b deleted, c moved to the front, x inserted)
/// let changeset = Changeset(deletions: [1], insertions: [2], moves: [Move(from: 2, to: 0)])
/// let new = ["c", "a", "x"]
/// print(changeset.apply(to: ["a", "b", "c"]) { new[$0] }) // ["c", "a", "x"]
/// ```
public struct Changeset: Sendable, Hashable {
    /// Indices of removed rows in the OLD results, ascending.
    public var deletions: [Int]
    /// Indices of added rows in the NEW results, ascending.
    public var insertions: [Int]
    /// Modified rows that did not move, as indices in the OLD results, ascending.
    public var modificationsInOld: [Int]
    /// The same modified rows as indices in the NEW results, in the same order (so also ascending).
    public var modificationsInNew: [Int]
    /// Rows that changed their place relative to the unchanged rows, ascending by `from`.
    public var moves: [Move]

    /// Creates a changeset; every list defaults to empty.
    ///
    /// ```swift
    /// let changeset = Changeset(deletions: [0], insertions: [0])
    /// ```
    public init(
        deletions: [Int] = [],
        insertions: [Int] = [],
        modificationsInOld: [Int] = [],
        modificationsInNew: [Int] = [],
        moves: [Move] = []
    ) {
        self.deletions = deletions
        self.insertions = insertions
        self.modificationsInOld = modificationsInOld
        self.modificationsInNew = modificationsInNew
        self.moves = moves
    }

    /// Whether the changeset changes nothing.
    public var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modificationsInOld.isEmpty && moves.isEmpty
    }

    /// The same update expressed without moves: each move becomes a deletion of its old index
    /// plus an insertion of its new index (merged into the sorted lists).
    ///
    /// ```swift
    /// let flat = Changeset(moves: [Move(from: 2, to: 0)]).withoutMoves()
    /// print(flat.deletions, flat.insertions) // [2] [0]
    /// ```
    public func withoutMoves() -> Changeset {
        Changeset(
            deletions: SortedIndices.merge(deletions, moves.map(\.from)),
            insertions: SortedIndices.merge(insertions, moves.map(\.to).sorted()),
            modificationsInOld: modificationsInOld,
            modificationsInNew: modificationsInNew,
            moves: []
        )
    }
}
