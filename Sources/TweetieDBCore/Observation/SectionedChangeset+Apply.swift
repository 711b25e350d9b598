extension SectionedChangeset {
    /// Applies the changeset to `old` following the documented batch-update semantics (see
    /// ``SectionedChangeset``).
    ///
    /// - Parameters:
    ///   - old: the sections before the change, each an array of rows.
    ///   - insertedSection: the complete new rows of an inserted section, by NEW section index
    ///     (UIKit asks the data source for them; they are not listed as row insertions).
    ///   - newElement: the row at a row path of the new results; called for inserted rows,
    ///     move targets and modified rows only.
    /// - Precondition: the changeset is valid for these results
    ///   (``validate(oldRowCounts:newRowCounts:)``).
    ///
    /// ```swift
    /// let new = [["a"], ["c", "d"]]
    /// let changeset = SectionedChangeset(sectionInsertions: [0], rowInsertions: [RowPath(section: 1, row: 1)])
    /// let result = changeset.apply(to: [["c"]], insertedSection: { new[$0] }, newElement: { new[$0.section][$0.row] })
    /// print(result) // [["a"], ["c", "d"]]
    /// ```
    public func apply<T>(
        to old: [[T]], insertedSection: (Int) -> [T], newElement: (RowPath) -> T
    ) -> [[T]] {
        // 1. Remove deleted and moved-out rows (old row paths).
        var removedRows: [Int: Set<Int>] = [:]
        for path in rowDeletions + rowMoves.map(\.from) {
            precondition(
                path.section >= 0 && path.section < old.count && path.row >= 0 && path.row < old[path.section].count,
                "SectionedChangeset.apply: old row path \(path) is out of bounds"
            )
            removedRows[path.section, default: []].insert(path.row)
        }
        var sections = old
        for (section, rows) in removedRows {
            sections[section] = sections[section].enumerated().filter { !rows.contains($0.offset) }.map(\.element)
        }
        // 2–3. Remove deleted and moved sections, then lay out the new section list.
        let removedSections = Set(sectionDeletions + sectionMoves.map(\.from))
        var movedSections: [Int: [T]] = [:]
        for move in sectionMoves { movedSections[move.to] = sections[move.from] }
        let insertedSections = Set(sectionInsertions)
        var remaining = sections.enumerated().filter { !removedSections.contains($0.offset) }.map(\.element)[...]
        let newSectionCount = old.count - sectionDeletions.count + sectionInsertions.count
        var result: [[T]] = []
        result.reserveCapacity(newSectionCount)
        for section in 0..<newSectionCount {
            if insertedSections.contains(section) {
                result.append(insertedSection(section))
            } else if let moved = movedSections[section] {
                result.append(moved)
            } else {
                guard let next = remaining.popFirst() else {
                    preconditionFailure("SectionedChangeset.apply: no old section left for new section \(section)")
                }
                result.append(next)
            }
        }
        precondition(remaining.isEmpty, "SectionedChangeset.apply: \(remaining.count) old sections have no place in the new results")
        // 4. Insert inserted and moved-in rows in ascending new index-path order.
        for path in (rowInsertions + rowMoves.map(\.to)).sorted() {
            precondition(
                path.section >= 0 && path.section < result.count && path.row >= 0 && path.row <= result[path.section].count,
                "SectionedChangeset.apply: new row path \(path) is out of bounds"
            )
            result[path.section].insert(newElement(path), at: path.row)
        }
        // 5. Replace modified rows.
        for path in rowModificationsInNew {
            precondition(
                path.section >= 0 && path.section < result.count && path.row >= 0 && path.row < result[path.section].count,
                "SectionedChangeset.apply: modified row path \(path) is out of bounds"
            )
            result[path.section][path.row] = newElement(path)
        }
        return result
    }

    /// Checks that a table view with `oldRowCounts.count` sections (of those row counts) would
    /// accept this batch update without raising and end with `newRowCounts`, and that each
    /// modification's old and new row paths denote the same row.
    ///
    /// Checked: sorted, in-bounds, duplicate-free lists; `sections after = before − deleted +
    /// inserted`; no row deletion or move out of a deleted section, no row insertion or move into
    /// an inserted section; no row both deleted/moved/reloaded; and UIKit's rule for every
    /// surviving section: `rows after = rows before − deleted − moved out + inserted + moved in`.
    ///
    /// ```swift
    /// try SectionedChangeset(sectionInsertions: [1]).validate(oldRowCounts: [2], newRowCounts: [2, 5])
    /// ```
    public func validate(oldRowCounts: [Int], newRowCounts: [Int]) throws(ChangesetValidationError) {
        let oldSectionCount = oldRowCounts.count
        let newSectionCount = newRowCounts.count
        func fail(_ list: String, _ reason: String) -> ChangesetValidationError {
            ChangesetValidationError(list: list, reason: reason)
        }
        // Sections.
        for (list, name, bound) in [
            (sectionDeletions, "sectionDeletions", oldSectionCount),
            (sectionInsertions, "sectionInsertions", newSectionCount),
            (sectionMoves.map(\.from), "sectionMoves.from", oldSectionCount),
            (sectionMoves.map(\.to).sorted(), "sectionMoves.to", newSectionCount),
        ] {
            if let offset = SortedIndices.firstDisorder(list) { throw fail(name, "not strictly ascending at offset \(offset)") }
            if let bad = list.first(where: { $0 < 0 || $0 >= bound }) { throw fail(name, "section \(bad) is out of bounds 0..<\(bound)") }
        }
        if SortedIndices.firstDisorder(SortedIndices.merge(sectionDeletions, sectionMoves.map(\.from))) != nil {
            throw fail("sectionMoves", "a section is both deleted and moved")
        }
        if SortedIndices.firstDisorder(SortedIndices.merge(sectionInsertions, sectionMoves.map(\.to).sorted())) != nil {
            throw fail("sectionMoves", "a section is both inserted and moved to")
        }
        if newSectionCount != oldSectionCount - sectionDeletions.count + sectionInsertions.count {
            throw fail(
                "section counts",
                "\(oldSectionCount) old - \(sectionDeletions.count) deleted + \(sectionInsertions.count) inserted != \(newSectionCount) new sections")
        }
        // Old section ↔ new section mapping.
        var newOfOld = [Int?](repeating: nil, count: oldSectionCount)
        var oldOfNew = [Int?](repeating: nil, count: newSectionCount)
        for move in sectionMoves {
            newOfOld[move.from] = move.to
            oldOfNew[move.to] = move.from
        }
        let deletedSections = Set(sectionDeletions)
        let insertedSections = Set(sectionInsertions)
        let movedOld = Set(sectionMoves.map(\.from))
        let movedNew = Set(sectionMoves.map(\.to))
        var nextNew = 0
        for old in 0..<oldSectionCount where !deletedSections.contains(old) && !movedOld.contains(old) {
            while insertedSections.contains(nextNew) || movedNew.contains(nextNew) { nextNew += 1 }
            newOfOld[old] = nextNew
            oldOfNew[nextNew] = old
            nextNew += 1
        }
        // Rows.
        func checkRows(
            _ list: [RowPath], _ name: String, counts: [Int], space: String, forbidden: Set<Int>, sorted: Bool = true
        ) throws(ChangesetValidationError) {
            if sorted, let offset = SortedIndices.firstDisorder(list) {
                throw fail(name, "not strictly ascending at offset \(offset)")
            }
            for path in list {
                guard path.section >= 0 && path.section < counts.count && path.row >= 0 && path.row < counts[path.section] else {
                    throw fail(name, "row path \(path) is out of bounds in the \(space) results")
                }
                if forbidden.contains(path.section) {
                    throw fail(name, "row path \(path) lies in a section that is \(space == "old" ? "deleted" : "inserted")")
                }
            }
        }
        try checkRows(rowDeletions, "rowDeletions", counts: oldRowCounts, space: "old", forbidden: deletedSections)
        try checkRows(rowMoves.map(\.from), "rowMoves.from", counts: oldRowCounts, space: "old", forbidden: deletedSections)
        try checkRows(rowModificationsInOld, "rowModificationsInOld", counts: oldRowCounts, space: "old", forbidden: deletedSections)
        try checkRows(rowInsertions, "rowInsertions", counts: newRowCounts, space: "new", forbidden: insertedSections)
        try checkRows(rowMoves.map(\.to).sorted(), "rowMoves.to", counts: newRowCounts, space: "new", forbidden: insertedSections)
        try checkRows(rowModificationsInNew, "rowModificationsInNew", counts: newRowCounts, space: "new", forbidden: insertedSections)
        if rowModificationsInOld.count != rowModificationsInNew.count {
            throw fail("rowModifications", "\(rowModificationsInOld.count) old paths but \(rowModificationsInNew.count) new paths")
        }
        let removed = SortedIndices.merge(rowDeletions, rowMoves.map(\.from))
        let oldMentioned = SortedIndices.merge(removed, rowModificationsInOld)
        if let offset = SortedIndices.firstDisorder(oldMentioned) {
            throw fail("rowDeletions/rowMoves.from/rowModificationsInOld", "old row path \(oldMentioned[offset]) is listed twice")
        }
        let added = SortedIndices.merge(rowInsertions, rowMoves.map(\.to).sorted())
        let newMentioned = SortedIndices.merge(added, rowModificationsInNew)
        if let offset = SortedIndices.firstDisorder(newMentioned) {
            throw fail("rowInsertions/rowMoves.to/rowModificationsInNew", "new row path \(newMentioned[offset]) is listed twice")
        }
        // UIKit's rule for every section that exists before and after.
        var removedPerOld = [Int](repeating: 0, count: oldSectionCount)
        for path in removed { removedPerOld[path.section] += 1 }
        var addedPerNew = [Int](repeating: 0, count: newSectionCount)
        for path in added { addedPerNew[path.section] += 1 }
        for new in 0..<newSectionCount {
            guard let old = oldOfNew[new] else { continue }
            let expected = oldRowCounts[old] - removedPerOld[old] + addedPerNew[new]
            if expected != newRowCounts[new] {
                throw fail(
                    "row counts",
                    "section \(old) → \(new): \(oldRowCounts[old]) rows - \(removedPerOld[old]) deleted/moved out + \(addedPerNew[new]) inserted/moved in = \(expected), but the new results have \(newRowCounts[new])")
            }
        }
        // Each modification's old path must land on its new path.
        for (oldPath, newPath) in zip(rowModificationsInOld, rowModificationsInNew) {
            guard let newSection = newOfOld[oldPath.section], newSection == newPath.section else {
                throw fail("rowModificationsInNew", "old row \(oldPath) does not stay in the section of \(newPath)")
            }
            let sectionStart = RowPath(section: oldPath.section, row: 0)
            let removedBefore = SortedIndices.lowerBound(removed, oldPath) - SortedIndices.lowerBound(removed, sectionStart)
            var row = oldPath.row - removedBefore
            let addedStart = SortedIndices.lowerBound(added, RowPath(section: newSection, row: 0))
            var cursor = addedStart
            while cursor < added.count && added[cursor].section == newSection && added[cursor].row <= row {
                row += 1
                cursor += 1
            }
            if row != newPath.row {
                throw fail("rowModificationsInNew", "old row \(oldPath) ends at [\(newSection), \(row)], not \(newPath)")
            }
        }
    }
}
