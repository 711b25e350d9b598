/// What ``StoreWriter/add(_:update:)`` does when a record with the same primary key exists.
///
/// The names follow Realm's `add(_:update:)`.
///
/// ```swift
/// try tx.add(tweet, update: .modified)
/// ```
public enum UpdatePolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// An existing key fails the transaction with ``StoreError/Code-swift.enum/constraintViolation``.
    case error
    /// Overwrite the existing record; it is always reported as modified (a record whose stored
    /// bytes are already identical is reported but not rewritten).
    case all
    /// Overwrite only when the stored bytes differ; an identical record is neither written nor
    /// reported as modified (fewer table reloads than Realm gives).
    case modified
}
