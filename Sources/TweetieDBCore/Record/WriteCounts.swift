/// Counts of what a batch write did.
///
/// ```swift
/// let counts = try store.write { tx in try tx.add(contentsOf: tweets, update: .modified) }
/// print(counts.inserted, counts.modified, counts.unchanged)
/// ```
public struct WriteCounts: Sendable, Hashable, Codable {
    /// Records that were new.
    ///
    /// ```swift
    /// print(counts.inserted)
    /// ```
    public var inserted = 0
    /// Records that were overwritten.
    ///
    /// ```swift
    /// print(counts.modified)
    /// ```
    public var modified = 0
    /// Records already stored with identical bytes.
    ///
    /// ```swift
    /// print(counts.unchanged)
    /// ```
    public var unchanged = 0

    /// Zero counts.
    ///
    /// ```swift
    /// var counts = WriteCounts()
    /// ```
    public init() {}

    @usableFromInline
    mutating func add(_ outcome: WriteOutcome) {
        switch outcome {
        case .inserted: inserted += 1
        case .modified: modified += 1
        case .unchanged: unchanged += 1
        }
    }
}
