/// Computes the new tree and the classified row changes for ``RankedTree/applying(_:)`` and
/// for sectioned results, in O(k log n + k log k) for k changes.
///
/// Classification:
/// - **stable** rows: present before and after with the same key. All rows not mentioned in the
///   changes are stable. Stable rows keep their relative order, so they never move; a mentioned
///   stable row with `contentChanged` is a modification.
/// - **re-keyed** rows: present before and after with different keys. Such a row stays in place
///   (and is reported as a modification, since its element changed) when it sits in the same
///   *gap* between stable rows before and after, it is not forced to move by `mustMove`, and it
///   belongs to a longest increasing subsequence of the re-keyed rows of that gap (by new index
///   in old order). All other re-keyed rows are moves. This yields the fewest moves possible
///   among changesets in which stable rows do not move.
/// - deleted rows (old key only) and inserted rows (new key only).
struct ChangesetBuilder<Key: Comparable, Value> {
    /// A resolved row: its old/new index and key, as needed to build flat or sectioned changesets.
    struct Row {
        var oldIndex: Int
        var newIndex: Int
        var oldKey: Key
        var newKey: Key
    }

    /// A change with its old index (looked up) and new index (after the tree is updated).
    struct Pending {
        var oldIndex: Int?
        var newIndex: Int?
        var change: RowChange<Key, Value>
    }

    /// The outcome: the new tree and the rows in each category, each list sorted ascending
    /// (moves and modifications by old index).
    struct Resolution {
        var tree: RankedTree<Key, Value>
        var deletions: [(index: Int, key: Key)] = []
        var insertions: [(index: Int, key: Key)] = []
        var moves: [Row] = []
        var modifications: [Row] = []

        /// The flat changeset.
        var changeset: Changeset {
            Changeset(
                deletions: deletions.map(\.index),
                insertions: insertions.map(\.index),
                modificationsInOld: modifications.map(\.oldIndex),
                modificationsInNew: modifications.map(\.newIndex),
                moves: moves.map { Move(from: $0.oldIndex, to: $0.newIndex) }
            )
        }
    }

    /// Applies `changes` to `old`.
    ///
    /// - Parameter mustMove: called for re-keyed rows with (old key, new key); `true` forces the
    ///   row to be a move (sectioned results use it for rows that change section).
    /// - Precondition: every `oldKey` is in `old` and named once; every `newKey` is named once and
    ///   is not the key of an unmentioned row; `newValue` is set whenever `newKey` is.
    static func resolve(
        _ old: RankedTree<Key, Value>,
        _ changes: [RowChange<Key, Value>],
        mustMove: ((Key, Key) -> Bool)?
    ) -> Resolution {
        var pending: [Pending] = []
        pending.reserveCapacity(changes.count)
        for (offset, change) in changes.enumerated() {
            if change.oldKey == nil && change.newKey == nil { continue }
            precondition(
                change.newKey == nil || change.newValue != nil,
                "RankedTree.applying: change #\(offset) has a newKey (\(String(describing: change.newKey!))) but no newValue"
            )
            var oldIndex: Int?
            if let oldKey = change.oldKey {
                guard let index = old.index(of: oldKey) else {
                    preconditionFailure(
                        "RankedTree.applying: change #\(offset) names old key \(oldKey), which is not in the old results")
                }
                oldIndex = index
            }
            pending.append(Pending(oldIndex: oldIndex, newIndex: nil, change: change))
        }
        let oldIndices = pending.compactMap(\.oldIndex).sorted()
        if let offset = SortedIndices.firstDisorder(oldIndices) {
            preconditionFailure(
                "RankedTree.applying: the row at old index \(oldIndices[offset]) is named by more than one change")
        }

        // Build the new tree: removals first so that a key freed by one row can be taken by another.
        var tree = old
        for item in pending {
            guard let oldKey = item.change.oldKey, oldKey != item.change.newKey else { continue }
            tree.removeExisting(oldKey)
        }
        for item in pending {
            guard let newKey = item.change.newKey, let newValue = item.change.newValue else { continue }
            if newKey == item.change.oldKey {
                tree.updateExistingValue(newValue, for: newKey)
            } else if tree.insertNew(newValue, for: newKey) == nil {
                preconditionFailure(
                    "RankedTree.applying: new key \(newKey) is already taken by another row; every changed row must be listed")
            }
        }
        for index in pending.indices {
            if let newKey = pending[index].change.newKey {
                pending[index].newIndex = tree.index(of: newKey)
            }
        }

        var resolution = Resolution(tree: tree)
        var rekeyed: [Row] = []
        var forcedMoves: [Row] = []
        for item in pending {
            switch (item.oldIndex, item.newIndex) {
            case let (oldIndex?, newIndex?):
                let row = Row(oldIndex: oldIndex, newIndex: newIndex, oldKey: item.change.oldKey!, newKey: item.change.newKey!)
                if row.oldKey == row.newKey {
                    if item.change.contentChanged { resolution.modifications.append(row) }
                } else if let mustMove, mustMove(row.oldKey, row.newKey) {
                    forcedMoves.append(row)
                } else {
                    rekeyed.append(row)
                }
            case let (oldIndex?, nil):
                resolution.deletions.append((oldIndex, item.change.oldKey!))
            case let (nil, newIndex?):
                resolution.insertions.append((newIndex, item.change.newKey!))
            case (nil, nil):
                break
            }
        }

        // Gap of a row = number of stable rows before it (same in old and new for stable rows).
        let unstableOld = (resolution.deletions.map(\.index) + rekeyed.map(\.oldIndex) + forcedMoves.map(\.oldIndex)).sorted()
        let unstableNew = (resolution.insertions.map(\.index) + rekeyed.map(\.newIndex) + forcedMoves.map(\.newIndex)).sorted()
        var sameGap: [(gap: Int, row: Row)] = []
        resolution.moves = forcedMoves
        for row in rekeyed {
            let oldGap = row.oldIndex - SortedIndices.lowerBound(unstableOld, row.oldIndex)
            let newGap = row.newIndex - SortedIndices.lowerBound(unstableNew, row.newIndex)
            if oldGap == newGap {
                sameGap.append((oldGap, row))
            } else {
                resolution.moves.append(row)
            }
        }
        sameGap.sort { ($0.gap, $0.row.oldIndex) < ($1.gap, $1.row.oldIndex) }
        var groupStart = 0
        while groupStart < sameGap.count {
            var groupEnd = groupStart + 1
            while groupEnd < sameGap.count && sameGap[groupEnd].gap == sameGap[groupStart].gap { groupEnd += 1 }
            let group = sameGap[groupStart..<groupEnd].map(\.row)
            let keep = LongestIncreasingSubsequence.membership(group.map(\.newIndex))
            for (row, kept) in zip(group, keep) {
                if kept {
                    resolution.modifications.append(row)
                } else {
                    resolution.moves.append(row)
                }
            }
            groupStart = groupEnd
        }

        resolution.deletions.sort { $0.index < $1.index }
        resolution.insertions.sort { $0.index < $1.index }
        resolution.moves.sort { $0.oldIndex < $1.oldIndex }
        resolution.modifications.sort { $0.oldIndex < $1.oldIndex }
        return resolution
    }
}
