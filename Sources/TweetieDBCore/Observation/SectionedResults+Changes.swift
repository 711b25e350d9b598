extension SectionedResults {
    /// Applies one commit's row changes and returns the new sectioned results with the exact
    /// sectioned changeset, in O(k log n + k log k) for k changes. `self` is not modified.
    ///
    /// Row classification is that of ``RankedTree/applying(_:)``, except that a row whose
    /// section changes is always a move (it cannot stay in place). Then, following UIKit's
    /// rules: sections that lose all their rows are deleted and their rows are not listed;
    /// sections that gain their first rows are inserted and their rows are not listed; a move
    /// out of a deleted section becomes an insertion, a move into an inserted section becomes a
    /// deletion (both: nothing). Sections are identified by key; section moves are computed
    /// with the same stable-gap/LIS rule over section keys (and are therefore empty, since
    /// sections are ordered by key).
    ///
    /// - Precondition: as for ``RankedTree/applying(_:)``; new keys keep `sectionKeyOf` monotone.
    ///
    /// ```swift
    /// let (new, changeset) = results.applying([
    ///     RowChange(oldKey: nil, newKey: Key(day: 3, id: 9), newValue: "c", contentChanged: true),
    /// ])
    /// print(changeset.sectionInsertions) // [2]
    /// ```
    @usableFromInline package func applying(
        _ changes: [RowChange<Key, Value>]
    ) -> (results: SectionedResults, changeset: SectionedChangeset) {
        let sectionKeyOf = self.sectionKeyOf
        let resolution = ChangesetBuilder.resolve(rows, changes, mustMove: { sectionKeyOf($0) != sectionKeyOf($1) })

        // Section row counts.
        var deltas: [SectionKey: Int] = [:]
        for change in changes {
            if let oldKey = change.oldKey { deltas[sectionKeyOf(oldKey), default: 0] -= 1 }
            if let newKey = change.newKey { deltas[sectionKeyOf(newKey), default: 0] += 1 }
        }
        var sectionChanges: [RowChange<SectionKey, Int>] = []
        for (sectionKey, delta) in deltas where delta != 0 {
            let before = sections.value(for: sectionKey) ?? 0
            let after = before + delta
            precondition(after >= 0, "SectionedResults.applying: section \(sectionKey) would have \(after) rows")
            sectionChanges.append(
                RowChange(oldKey: before > 0 ? sectionKey : nil, newKey: after > 0 ? sectionKey : nil,
                          newValue: after, contentChanged: true))
        }
        let sectionResolution = ChangesetBuilder.resolve(sections, sectionChanges, mustMove: nil)
        let new = SectionedResults(rows: resolution.tree, sections: sectionResolution.tree, sectionKeyOf: sectionKeyOf)
        for row in resolution.insertions.map(\.key) + resolution.moves.map(\.newKey) + resolution.modifications.map(\.newKey) {
            new.checkMonotone(around: row)
        }

        let deletedSections = Set(sectionResolution.deletions.map(\.key))
        let insertedSections = Set(sectionResolution.insertions.map(\.key))
        var oldPaths = RowPathLookup(results: self)
        var newPaths = RowPathLookup(results: new)
        var changeset = SectionedChangeset(
            sectionDeletions: sectionResolution.deletions.map(\.index),
            sectionInsertions: sectionResolution.insertions.map(\.index),
            sectionMoves: sectionResolution.moves.map { Move(from: $0.oldIndex, to: $0.newIndex) }
        )
        for (index, key) in resolution.deletions where !deletedSections.contains(sectionKeyOf(key)) {
            changeset.rowDeletions.append(oldPaths.rowPath(flatIndex: index, key: key))
        }
        for (index, key) in resolution.insertions where !insertedSections.contains(sectionKeyOf(key)) {
            changeset.rowInsertions.append(newPaths.rowPath(flatIndex: index, key: key))
        }
        for row in resolution.moves {
            let leavesDeletedSection = deletedSections.contains(sectionKeyOf(row.oldKey))
            let entersInsertedSection = insertedSections.contains(sectionKeyOf(row.newKey))
            switch (leavesDeletedSection, entersInsertedSection) {
            case (false, false):
                changeset.rowMoves.append(
                    RowMove(from: oldPaths.rowPath(flatIndex: row.oldIndex, key: row.oldKey),
                            to: newPaths.rowPath(flatIndex: row.newIndex, key: row.newKey)))
            case (false, true):
                changeset.rowDeletions.append(oldPaths.rowPath(flatIndex: row.oldIndex, key: row.oldKey))
            case (true, false):
                changeset.rowInsertions.append(newPaths.rowPath(flatIndex: row.newIndex, key: row.newKey))
            case (true, true):
                break
            }
        }
        for row in resolution.modifications {
            changeset.rowModificationsInOld.append(oldPaths.rowPath(flatIndex: row.oldIndex, key: row.oldKey))
            changeset.rowModificationsInNew.append(newPaths.rowPath(flatIndex: row.newIndex, key: row.newKey))
        }
        changeset.rowDeletions.sort()
        changeset.rowInsertions.sort()
        changeset.rowMoves.sort { $0.from < $1.from }
        return (new, changeset)
    }

    /// Checks that the row with `key` sits between rows of sections not after / not before its own.
    private func checkMonotone(around key: Key) {
        guard let index = rows.index(of: key) else { return }
        let section = sectionKeyOf(key)
        if index > 0 {
            let previous = sectionKeyOf(rows[index - 1].key)
            precondition(previous <= section, "SectionedResults.applying: row \(key) (section \(section)) follows a row of section \(previous); sectionKeyOf must be monotone in key order")
        }
        if index + 1 < rows.count {
            let next = sectionKeyOf(rows[index + 1].key)
            precondition(section <= next, "SectionedResults.applying: row \(key) (section \(section)) precedes a row of section \(next); sectionKeyOf must be monotone in key order")
        }
    }
}

/// Converts flat indices of one ``SectionedResults`` version to row paths, remembering where
/// each section starts so that rows of the same section cost one lookup.
struct RowPathLookup<SectionKey: Hashable & Comparable, Key: Comparable, Value> {
    let results: SectionedResults<SectionKey, Key, Value>
    private var sections: [SectionKey: (index: Int, start: Int)] = [:]

    init(results: SectionedResults<SectionKey, Key, Value>) {
        self.results = results
    }

    /// The row path of the row with `key` at flat index `flatIndex`, O(log n) (cached per section).
    mutating func rowPath(flatIndex: Int, key: Key) -> RowPath {
        let sectionKey = results.sectionKeyOf(key)
        if let known = sections[sectionKey] {
            return RowPath(section: known.index, row: flatIndex - known.start)
        }
        guard let section = results.sections.index(of: sectionKey) else {
            preconditionFailure("SectionedResults: section \(sectionKey) of row \(key) is missing from the section index")
        }
        let start = results.flatStart(ofSectionKey: sectionKey)
        sections[sectionKey] = (section, start)
        return RowPath(section: section, row: flatIndex - start)
    }
}
