/// What one ingest did to the store: how many records were inserted, modified, left unchanged
/// and deleted, and how many elements of the response could not be decoded.
///
/// ```swift
/// let report = try await TimelineIngest.ingest(page, list: list, into: store)
/// print("\(report.inserted) new, \(report.modified) changed, \(report.deleted) deleted")
/// ```
public struct IngestReport: Sendable, Hashable, Codable {
    /// Records that were not stored before.
    ///
    /// ```swift
    /// if report.inserted > 0 { showNewTweetsBadge() }
    /// ```
    public var inserted: Int
    /// Stored records whose stored form changed (new counts, new text, a new list membership).
    public var modified: Int
    /// Records that were stored already, byte for byte identical.
    public var unchanged: Int
    /// Records removed because the source reported them deleted (ids not stored are not counted).
    public var deleted: Int
    /// Elements of the response that did not decode and were left out.
    ///
    /// ```swift
    /// if report.dropped > 0 { logger.warning("\(report.dropped) elements dropped") }
    /// ```
    public var dropped: Int

    /// Creates a report; every count defaults to zero.
    ///
    /// ```swift
    /// let empty = IngestReport()
    /// let some = IngestReport(inserted: 3, deleted: 1)
    /// ```
    public init(inserted: Int = 0, modified: Int = 0, unchanged: Int = 0, deleted: Int = 0, dropped: Int = 0) {
        self.inserted = inserted
        self.modified = modified
        self.unchanged = unchanged
        self.deleted = deleted
        self.dropped = dropped
    }

    /// The number of records the response carried that were written or checked
    /// (`inserted + modified + unchanged`).
    ///
    /// ```swift
    /// print(IngestReport(inserted: 2, unchanged: 3).received) // 5
    /// ```
    public var received: Int { inserted + modified + unchanged }

    /// Whether the store changed (something inserted, modified or deleted).
    ///
    /// ```swift
    /// print(IngestReport(unchanged: 4).changedStore) // false
    /// ```
    public var changedStore: Bool { inserted + modified + deleted > 0 }

    /// Adds two reports count by count.
    ///
    /// ```swift
    /// let total = IngestReport(inserted: 1) + IngestReport(deleted: 2)   // inserted 1, deleted 2
    /// ```
    public static func + (lhs: IngestReport, rhs: IngestReport) -> IngestReport {
        IngestReport(inserted: lhs.inserted + rhs.inserted, modified: lhs.modified + rhs.modified,
                     unchanged: lhs.unchanged + rhs.unchanged, deleted: lhs.deleted + rhs.deleted,
                     dropped: lhs.dropped + rhs.dropped)
    }

    /// Adds `rhs` to `lhs` count by count.
    ///
    /// ```swift
    /// var total = IngestReport()
    /// total += try await fetcher.refresh()
    /// ```
    public static func += (lhs: inout IngestReport, rhs: IngestReport) {
        lhs = lhs + rhs
    }

    mutating func count(_ outcome: WriteOutcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .modified: modified += 1
        case .unchanged: unchanged += 1
        }
    }
}
