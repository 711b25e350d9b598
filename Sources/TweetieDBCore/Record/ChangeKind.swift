/// What a write transaction did to one record, comparing its state before and after the transaction.
///
/// ```swift
/// if change.kind == .deleted { … }
/// ```
public enum ChangeKind: UInt8, Sendable, Hashable, Codable {
    /// The record did not exist before the transaction and exists after it.
    case inserted = 0
    /// The record existed before and after, and its stored bytes were rewritten.
    case modified = 1
    /// The record existed before the transaction and does not after it.
    case deleted = 2
}
