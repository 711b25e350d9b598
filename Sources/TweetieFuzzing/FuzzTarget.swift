/// What a fuzz run feeds its inputs to.
///
/// ```swift
/// let target = FuzzTarget(rawValue: "statuses")!
/// ```
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// `TwitterJSON.decodeStatuses` (list and user timelines).
    case statuses
    /// `TwitterJSON.decodeMembers` (`{"users":[…]}`).
    case members
    /// `TwitterJSON.decodeUsers` (an array of users).
    case users
    /// `Store.importNDJSON(from:mode:)` on a seeded temporary store.
    case ndjson

    /// The file extension of corpus files for this target.
    package var fileExtension: String { self == .ndjson ? "ndjson" : "json" }
}
