import Foundation

/// What one ingest run did, step by step.
///
/// ```swift
/// let summary = try await TimelineSync.fromCache(directory: url, list: list, into: store)
/// print(summary.total.inserted)
/// ```
public struct SyncSummary: Sendable, Hashable, Codable {
    /// One step: what was fetched and what storing it did.
    public struct Step: Sendable, Hashable, Codable {
        /// What was fetched, e.g. `list icanzilb/RxSwift` or `user ashfurrow`.
        public var source: String
        /// What storing it did.
        public var report: IngestReport

        /// A step.
        ///
        /// ```swift
        /// SyncSummary.Step(source: "total", report: summary.total)
        /// ```
        public init(source: String, report: IngestReport) {
            self.source = source
            self.report = report
        }
    }

    /// The steps, in order.
    public var steps: [Step] = []

    /// All steps added up.
    public var total: IngestReport { steps.reduce(IngestReport()) { $0 + $1.report } }

    mutating func add(_ source: String, _ report: IngestReport) { steps.append(Step(source: source, report: report)) }
}
