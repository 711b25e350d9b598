/// The first `limit` rows of sectioned results, kept in step with them: what a windowed
/// sectioned observation delivers.
///
/// A change to the full results becomes a change to the window in O(k log n) for k changed rows:
/// the changed rows the window contains (before or after), the rows pushed out at the window's
/// end, and the rows pulled in to fill it, which are found by rank next to the old and new last
/// row, never by reading the window or the results whole.
struct SectionedResultsWindow<SectionKey: Hashable & Comparable, Key: Hashable & Comparable, Value> {
    typealias Results = SectionedResults<SectionKey, Key, Value>

    /// The most rows the window holds.
    private(set) var limit: Int
    /// The window: the first `min(limit, full.rows.count)` rows of the full results.
    private(set) var rows: Results

    /// The window's change: its sectioned changeset, and which of its rows, unchanged themselves,
    /// came from beyond the old window's end or went beyond the new one's.
    struct Change {
        var changeset: SectionedChangeset
        /// New paths of unchanged rows that were in the old results but not in the old window.
        var entered: [RowPath]
        /// Old paths of unchanged rows that are in the new results but not in the new window.
        var left: [RowPath]
    }

    /// The window of the first `limit` rows of `full`, O(limit log n).
    init(limit: Int, of full: Results) {
        precondition(limit >= 0, "a window's limit must not be negative, got \(limit)")
        self.limit = limit
        let count = Swift.min(limit, full.rows.count)
        rows = Results(rows: RankedTree(sortedUniqueElements: full.rows.elements(in: 0..<count)), sectionKeyOf: full.sectionKeyOf)
    }

    /// Whether the full results hold rows beyond the window.
    func hasMore(in full: Results) -> Bool { full.rows.count > rows.rows.count }

    /// Follows `changes`, the row changes that turned the full results into `full`.
    mutating func apply(_ changes: [RowChange<Key, Value>], full: Results) -> Change {
        let newCount = Swift.min(limit, full.rows.count)
        let boundary = newCount > 0 ? full.rows[newCount - 1].key : nil
        func inNewWindow(_ key: Key) -> Bool { boundary.map { key <= $0 } ?? false }

        var windowChanges: [RowChange<Key, Value>] = []
        var changedOld = Set<Key>()
        var changedNew = Set<Key>()
        var entered: [Key] = []
        var left: [Key] = []
        for change in changes {
            if let oldKey = change.oldKey { changedOld.insert(oldKey) }
            if let newKey = change.newKey { changedNew.insert(newKey) }
            let wasIn = change.oldKey.map { rows.rows.contains($0) } ?? false
            let isIn = change.newKey.map(inNewWindow) ?? false
            guard wasIn || isIn else { continue }
            windowChanges.append(RowChange(oldKey: wasIn ? change.oldKey : nil, newKey: isIn ? change.newKey : nil,
                                           newValue: isIn ? change.newValue : nil, contentChanged: change.contentChanged || wasIn != isIn))
        }
        // Unchanged rows pushed past the new last row: the old window's tail.
        var index = rows.rows.count - 1
        while index >= 0, case let key = rows.rows[index].key, !inNewWindow(key) {
            if !changedOld.contains(key) {
                windowChanges.append(RowChange(oldKey: key, newKey: nil, newValue: nil, contentChanged: true))
                left.append(key)
            }
            index -= 1
        }
        // Unchanged rows pulled in: between the old window's last row (every unchanged row up to it
        // is in the window already) and the new one's. A window that was not full held every row.
        if rows.rows.count == limit, limit > 0 {
            let oldLast = rows.rows[limit - 1].key
            var index = full.rows.insertionIndex(for: oldLast)
            if index < full.rows.count, full.rows[index].key == oldLast { index += 1 }
            while index < newCount {
                let (key, value) = full.rows[index]
                if !changedNew.contains(key) {
                    windowChanges.append(RowChange(oldKey: nil, newKey: key, newValue: value, contentChanged: true))
                    entered.append(key)
                }
                index += 1
            }
        }
        return replace(applying: windowChanges, entered: entered, left: left)
    }

    /// Changes the limit: rows after the new limit leave the window, or the next rows of `full`
    /// enter it, O((change in size) log n).
    mutating func resize(to newLimit: Int, full: Results) -> Change {
        precondition(newLimit >= 0, "a window's limit must not be negative, got \(newLimit)")
        let oldCount = rows.rows.count
        let newCount = Swift.min(newLimit, full.rows.count)
        limit = newLimit
        var windowChanges: [RowChange<Key, Value>] = []
        var entered: [Key] = []
        var left: [Key] = []
        for (key, value) in full.rows.elements(in: Swift.min(oldCount, newCount)..<Swift.max(oldCount, newCount)) {
            if newCount > oldCount {
                windowChanges.append(RowChange(oldKey: nil, newKey: key, newValue: value, contentChanged: true))
                entered.append(key)
            } else {
                windowChanges.append(RowChange(oldKey: key, newKey: nil, newValue: nil, contentChanged: true))
                left.append(key)
            }
        }
        return replace(applying: windowChanges, entered: entered, left: left)
    }

    private mutating func replace(applying changes: [RowChange<Key, Value>], entered: [Key], left: [Key]) -> Change {
        guard !changes.isEmpty else { return Change(changeset: SectionedChangeset(), entered: [], left: []) }
        let old = rows
        let (new, changeset) = old.applying(changes)
        rows = new
        return Change(changeset: changeset, entered: entered.compactMap { new.rowPath(of: $0) }.sorted(),
                      left: left.compactMap { old.rowPath(of: $0) }.sorted())
    }
}
