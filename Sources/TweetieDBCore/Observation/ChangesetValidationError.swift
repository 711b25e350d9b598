/// A changeset that a table view would reject, or that does not turn the old results into
/// the new ones.
///
/// ```swift
/// do {
///     try changeset.validate(oldCount: 3, newCount: 4)
/// } catch {
///     print(error) // e.g. "invalid changeset: insertions: index 9 is out of bounds 0..<4 (new results)"
/// }
/// ```
public struct ChangesetValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which list of the changeset is wrong (for example `"rowDeletions"`).
    public var list: String
    /// Why it is wrong.
    public var reason: String

    /// Creates an error for `list` with a human-readable `reason`.
    ///
    /// ```swift
    /// let error = ChangesetValidationError(list: "moves", reason: "duplicate index 3")
    /// ```
    public init(list: String, reason: String) {
        self.list = list
        self.reason = reason
    }

    /// "invalid changeset: <list>: <reason>".
    ///
    /// ```swift
    /// print(ChangesetValidationError(list: "moves", reason: "x").description) // "invalid changeset: moves: x"
    /// ```
    public var description: String { "invalid changeset: \(list): \(reason)" }
}
