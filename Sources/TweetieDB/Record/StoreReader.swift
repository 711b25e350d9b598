/// A read-only store transaction: one consistent snapshot of every collection.
///
/// ```swift
/// let (count, newest) = try store.read { tx in
///     (try tx.count(Tweet.self), try tx.fetch(Query<Tweet>().sorted(byIndex: "created").limit(1)))
/// }
/// ```
public struct StoreReader: StoreReading {
    /// The store.
    ///
    /// ```swift
    /// print(tx.store.collectionNames)
    /// ```
    public let store: Store
    /// The LMDB transaction underneath.
    ///
    /// ```swift
    /// print(tx.transaction.id)
    /// ```
    public let transaction: ReadTransaction
}
