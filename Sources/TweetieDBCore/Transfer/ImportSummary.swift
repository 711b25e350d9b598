import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What an import did.
///
/// ```swift
/// let summary = try store.importNDJSON(from: fd, mode: .merge)
/// print(summary.records)
/// ```
public struct ImportSummary: Sendable, Hashable, Codable {
    /// Record lines imported, per collection.
    ///
    /// ```swift
    /// print(summary.perCollection["tweets"] ?? 0)
    /// ```
    public var perCollection: [String: Int] = [:]
    /// Record lines imported in total.
    ///
    /// ```swift
    /// print(summary.records)
    /// ```
    public var records: Int { perCollection.values.reduce(0, +) }
    /// Records that were new, overwritten, or already identical.
    ///
    /// ```swift
    /// print(summary.counts.inserted)
    /// ```
    public var counts = WriteCounts()
}
