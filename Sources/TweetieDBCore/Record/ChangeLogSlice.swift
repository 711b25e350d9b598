/// A contiguous part of the change log, as read in one snapshot.
///
/// ```swift
/// let slice = try store.read { try $0.changeLog(after: lastSeen) }
/// if slice.isTruncated { /* fell behind the retention bound: re-read everything */ }
/// ```
public struct ChangeLogSlice: Sendable {
    /// The entries after the requested sequence, oldest first.
    ///
    /// ```swift
    /// print(slice.entries.count)
    /// ```
    public var entries: [ChangeLogEntry]
    /// The last sequence number committed in the snapshot (0 when nothing was ever logged).
    ///
    /// ```swift
    /// lastSeen = slice.lastSequence
    /// ```
    public var lastSequence: UInt64
    /// Whether entries between the requested sequence and the first entry were already pruned by
    /// the retention bound, so the slice does not describe every change since then.
    ///
    /// ```swift
    /// if slice.isTruncated { … }
    /// ```
    public var isTruncated: Bool
    /// The position of ``lastSequence``: the history point a reader of this slice has reached.
    ///
    /// ```swift
    /// lastSeen = slice.lastPosition
    /// ```
    public var lastPosition: ChangeLogPosition
}
