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
