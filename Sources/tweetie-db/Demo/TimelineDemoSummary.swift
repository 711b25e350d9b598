import TweetieSync

/// The figures a demo run ends with.
///
/// ```swift
/// print(summary.tweetsStored, summary.changesets)
/// ```
struct TimelineDemoSummary: Sendable, Codable, Hashable {
    /// Tweets in the store at the end.
    var tweetsStored = 0
    /// Tweets of the demo's list at the end.
    var listTweets = 0
    /// Write transactions that changed records during the run.
    var commits = 0
    /// Changesets delivered to the view model's consumer (initial elements excluded).
    var changesets = 0
    /// Changesets that, applied to the previous sections, did not give the new ones (should be 0).
    var inexactChangesets = 0
    /// What the fetches stored, added up.
    var ingested = IngestReport()
    /// Rows inserted, modified, deleted and moved in the delivered changesets.
    var rowsInserted = 0, rowsModified = 0, rowsDeleted = 0, rowsMoved = 0
    /// Fetch ticks run.
    var ticks = 0
}
