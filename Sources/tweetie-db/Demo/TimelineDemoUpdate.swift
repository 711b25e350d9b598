import TweetieSync

/// One delivered element of the list timeline, as the demo renders it.
///
/// ```swift
/// print(update.inserted, update.appliedExactly)
/// ```
struct TimelineDemoUpdate: Sendable {
    /// The sections after the update.
    var sections: [TimelineSection]
    /// The changeset that produced them (empty for an initial element).
    var changeset: SectionedChangeset
    /// Whether this is a fresh start (first element or after falling behind).
    var isInitial: Bool
    /// The change-log sequence.
    var sequence: UInt64
    /// Whether applying `changeset` to the previous sections gave exactly `sections`.
    var appliedExactly: Bool
    /// Ids of rows inserted, modified and moved by this update.
    var insertedIds: Set<Int64>, modifiedIds: Set<Int64>, movedIds: Set<Int64>
    /// The number of rows deleted by this update (including rows of deleted sections).
    var deletedCount: Int
}
