/// A failed export or import: the line (1-based) if known, and why. The database is unchanged.
///
/// ```swift
/// do { try store.importNDJSON(from: fd, mode: .merge) }
/// catch let error as TransferError { print(error) } // "line 3: duplicate key 42 in collection 'tweets'"
/// ```
public struct TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number of the offending line, if the error concerns one.
    ///
    /// ```swift
    /// print(error.line ?? 0)
    /// ```
    public var line: Int?
    /// Why the line or the input was rejected.
    ///
    /// ```swift
    /// print(error.reason)
    /// ```
    public var reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// TransferError(line: 2, reason: "bad JSON")
    /// ```
    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// "line N: reason", or the reason alone.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
