/// What ``StoreWriter/add(_:update:)`` did.
///
/// ```swift
/// if try tx.add(tweet, update: .modified) == .unchanged { print("already up to date") }
/// ```
public enum WriteOutcome: Sendable, Hashable {
    /// The record was new.
    case inserted
    /// The record existed and was overwritten.
    case modified
    /// The record existed with identical bytes (policy `.modified`): nothing was written.
    case unchanged
}
