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

/// What the code under test did with one input, when it behaved as specified.
///
/// ```swift
/// if case .rejected(let shape) = verdict { print(shape) }
/// ```
package enum FuzzVerdict: Hashable, Sendable {
    /// The input was accepted.
    case accepted
    /// The input was rejected with the expected error type; `shape` is the error's reason with
    /// digits masked, to group similar rejections.
    case rejected(shape: String)

    /// `accepted` or `rejected`, the prefix of corpus file names.
    package var label: String {
        if case .accepted = self { return "accepted" }
        return "rejected"
    }

    static func shape(of reason: String) -> String {
        var out = ""
        var lastWasDigit = false
        for character in reason {
            if character.isNumber {
                if !lastWasDigit { out.append("#") }
                lastWasDigit = true
            } else {
                out.append(character)
                lastWasDigit = false
            }
            if out.count >= 90 { break }
        }
        return out
    }
}

/// The code under test misbehaved: wrong error type, a changed database after a rejection, an
/// inconsistent database after an acceptance, or a value that does not round-trip.
///
/// ```swift
/// throw FuzzFinding("the store changed after a rejected import")
/// ```
package struct FuzzFinding: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var description: String

    /// Creates a finding.
    package init(_ description: String) { self.description = description }
}
