/// What the growth sampler measured over a stress run.
struct GrowthSummary: Codable, Sendable {
    var pageSize: Int
    /// One sample per second while the writers run, plus one when they have all finished.
    var samples: [GrowthSample]
    /// The samples nearest 10, 25, 50, 75 and 100 % of the run, as (percent, sample).
    var milestones: [GrowthMilestone]
    /// How many times the reader table was polled (every ``GrowthSampler/pollInterval``).
    var polls: Int
    /// The largest reader lag seen: commits since the oldest open read transaction's snapshot.
    var maxReaderLag: Int
    /// Which process held that reader ("observer 0", "feed 1", …).
    var maxReaderLagHolder: String?
    /// The longest time one reader slot was seen holding one snapshot, in milliseconds (a lower
    /// bound: polls see a read transaction only while it is open).
    var longestReadMilliseconds: Double
    /// Which process held that read transaction.
    var longestReadHolder: String?
    /// The most free pages pinned by a reader at any sample.
    var maxPinnedPages: Int
}
