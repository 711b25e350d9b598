extension Changeset {
    /// Applies the changeset to `old` following the documented batch-update semantics
    /// (see ``Changeset``): remove deletions and move sources, insert insertions and move
    /// targets in ascending new order, then replace the modified rows.
    ///
    /// `newElement(i)` must return the element at index `i` of the new results; it is called for
    /// inserted rows, move targets and modified rows only. O(old.count + new.count).
    ///
    /// - Precondition: the changeset is valid for these sizes (``validate(oldCount:newCount:)``).
    ///
    /// ```swift
    /// let new = [1, 20, 3]
    /// let changeset = Changeset(modificationsInOld: [1], modificationsInNew: [1])
    /// print(changeset.apply(to: [1, 2, 3]) { new[$0] }) // [1, 20, 3]
    /// ```
    public func apply<T>(to old: [T], newElement: (Int) -> T) -> [T] {
        let removed = SortedIndices.merge(deletions, moves.map(\.from))
        let added = SortedIndices.merge(insertions, moves.map(\.to).sorted())
        precondition(
            removed.last.map { $0 < old.count } ?? true,
            "Changeset.apply: old index \(removed.last ?? 0) is out of bounds 0..<\(old.count)"
        )
        var result: [T] = []
        let newCount = old.count - removed.count + added.count
        result.reserveCapacity(newCount)
        var removedCursor = 0
        var addedCursor = 0
        var oldCursor = 0
        for position in 0..<newCount {
            if addedCursor < added.count && added[addedCursor] == position {
                result.append(newElement(position))
                addedCursor += 1
                continue
            }
            while removedCursor < removed.count && removed[removedCursor] == oldCursor {
                removedCursor += 1
                oldCursor += 1
            }
            precondition(
                oldCursor < old.count,
                "Changeset.apply: the changeset does not fit \(old.count) old rows (ran out at new index \(position))"
            )
            result.append(old[oldCursor])
            oldCursor += 1
        }
        precondition(
            addedCursor == added.count,
            "Changeset.apply: new index \(added.last ?? 0) is out of bounds 0..<\(newCount)"
        )
        for position in modificationsInNew {
            precondition(
                position >= 0 && position < newCount,
                "Changeset.apply: modified new index \(position) is out of bounds 0..<\(newCount)"
            )
            result[position] = newElement(position)
        }
        return result
    }

    /// Checks that a table view with `oldCount` rows would accept this changeset and end with
    /// `newCount` rows, and that each modification's old and new index denote the same row.
    ///
    /// Checked: every list strictly ascending and in bounds; no old index both deleted, moved or
    /// reloaded; no new index both inserted, moved-to or modified; equal modification list
    /// lengths; `newCount == oldCount - deletions + insertions`; modificationsInOld[j] lands on
    /// modificationsInNew[j] once the other changes are applied.
    ///
    /// ```swift
    /// try Changeset(deletions: [0]).validate(oldCount: 1, newCount: 0)
    /// ```
    public func validate(oldCount: Int, newCount: Int) throws(ChangesetValidationError) {
        func checkList(_ list: [Int], _ name: String, bound: Int, space: String) throws(ChangesetValidationError) {
            if let offset = SortedIndices.firstDisorder(list) {
                throw ChangesetValidationError(list: name, reason: "not strictly ascending at offset \(offset)")
            }
            if let bad = list.first(where: { $0 < 0 || $0 >= bound }) {
                throw ChangesetValidationError(list: name, reason: "index \(bad) is out of bounds 0..<\(bound) (\(space))")
            }
        }
        try checkList(deletions, "deletions", bound: oldCount, space: "old results")
        try checkList(insertions, "insertions", bound: newCount, space: "new results")
        try checkList(modificationsInOld, "modificationsInOld", bound: oldCount, space: "old results")
        try checkList(modificationsInNew, "modificationsInNew", bound: newCount, space: "new results")
        try checkList(moves.map(\.from), "moves.from", bound: oldCount, space: "old results")
        try checkList(moves.map(\.to).sorted(), "moves.to", bound: newCount, space: "new results")
        if modificationsInOld.count != modificationsInNew.count {
            throw ChangesetValidationError(
                list: "modifications",
                reason: "\(modificationsInOld.count) old indices but \(modificationsInNew.count) new indices")
        }
        let removed = SortedIndices.merge(deletions, moves.map(\.from))
        if let offset = SortedIndices.firstDisorder(SortedIndices.merge(removed, modificationsInOld)) {
            throw ChangesetValidationError(
                list: "deletions/moves.from/modificationsInOld",
                reason: "old index \(SortedIndices.merge(removed, modificationsInOld)[offset]) is listed twice")
        }
        let added = SortedIndices.merge(insertions, moves.map(\.to).sorted())
        if let offset = SortedIndices.firstDisorder(SortedIndices.merge(added, modificationsInNew)) {
            throw ChangesetValidationError(
                list: "insertions/moves.to/modificationsInNew",
                reason: "new index \(SortedIndices.merge(added, modificationsInNew)[offset]) is listed twice")
        }
        if newCount != oldCount - deletions.count + insertions.count {
            throw ChangesetValidationError(
                list: "counts",
                reason: "\(oldCount) old rows - \(deletions.count) deleted + \(insertions.count) inserted != \(newCount) new rows")
        }
        // Survivor number r (0-based, old order) lands on the r-th new index not in `added`.
        var addedCursor = 0
        var newPosition = 0
        var survivorsPassed = 0
        for (j, oldIndex) in modificationsInOld.enumerated() {
            let rank = oldIndex - SortedIndices.lowerBound(removed, oldIndex)
            while survivorsPassed < rank || (addedCursor < added.count && added[addedCursor] == newPosition) {
                if addedCursor < added.count && added[addedCursor] == newPosition {
                    addedCursor += 1
                } else {
                    survivorsPassed += 1
                }
                newPosition += 1
            }
            if newPosition != modificationsInNew[j] {
                throw ChangesetValidationError(
                    list: "modificationsInNew",
                    reason: "old row \(oldIndex) ends at new index \(newPosition), not \(modificationsInNew[j])")
            }
        }
    }
}
