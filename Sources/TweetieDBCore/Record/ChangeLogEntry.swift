/// One committed write transaction as recorded in the change log.
///
/// ```swift
/// for entry in try store.read({ try $0.changeLog(after: 0) }).entries { print(entry.sequence) }
/// ```
public struct ChangeLogEntry: Sendable, Hashable {
    /// The entry's sequence number: consecutive, starting at 1, one per committing transaction that
    /// changed at least one record.
    ///
    /// ```swift
    /// print(entry.sequence)
    /// ```
    public var sequence: UInt64
    /// The collections whose changes were too many to list (bulk imports, removing everything):
    /// observers of these collections re-read them instead of applying keys.
    ///
    /// ```swift
    /// if entry.unlistedCollections.contains("tweets") { /* refetch */ }
    /// ```
    public var unlistedCollections: Set<String>
    /// The net changes, per collection, as (encoded primary key, kind).
    ///
    /// ```swift
    /// print(entry.changes["tweets"]?.count ?? 0)
    /// ```
    public var changes: [String: [(key: [UInt8], kind: ChangeKind)]]
    /// The random id the committing transaction logged with the entry (`nil` for entries logged
    /// before commit ids existed): with ``sequence``, it tells this commit from another at the same
    /// sequence in another history (a database restored from a backup and written again).
    ///
    /// ```swift
    /// print(entry.position)   // 14.5f3a9c0e12ab34cd
    /// ```
    public var commitID: UInt64? = nil

    /// The history position this entry brings a reader to.
    public var position: ChangeLogPosition { ChangeLogPosition(sequence: sequence, commitID: commitID) }

    public static func == (lhs: ChangeLogEntry, rhs: ChangeLogEntry) -> Bool {
        lhs.sequence == rhs.sequence && lhs.commitID == rhs.commitID && lhs.unlistedCollections == rhs.unlistedCollections
            && lhs.changes.mapValues { $0.map { Pair(key: $0.key, kind: $0.kind) } } == rhs.changes.mapValues { $0.map { Pair(key: $0.key, kind: $0.kind) } }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(sequence) }

    private struct Pair: Hashable { var key: [UInt8]; var kind: ChangeKind }
}
