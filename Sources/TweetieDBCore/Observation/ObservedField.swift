/// A field whose change counts as a modification, for observations narrowed to some fields
/// (Realm's key-path filtering): other changes of a record are not reported as modifications.
///
/// ```swift
/// store.observe(query, modificationsOf: [ObservedField(\.text), ObservedField(\.favoriteCount)])
/// ```
public struct ObservedField<R>: Sendable {
    let differs: @Sendable (R, R) -> Bool

    /// A field given by key path; compared with `==`.
    ///
    /// ```swift
    /// ObservedField(\Tweet.text)
    /// ```
    public init<V: Equatable & SendableMetatype>(_ keyPath: any KeyPath<R, V> & Sendable) {
        differs = { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
    }
}
