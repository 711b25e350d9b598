/// The direction of a sort or an index component.
///
/// ```swift
/// Index<Tweet>("created", order: .descending) { $0.created }
/// ```
public enum SortOrder: String, Sendable, Hashable, Codable {
    /// Smallest first.
    case ascending
    /// Largest first.
    case descending
}
