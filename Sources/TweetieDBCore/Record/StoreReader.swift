/// A store transaction that reads: one consistent snapshot of every collection.
///
/// A read-only transaction (`Store.read`) is a `StoreReader`; a read-write one is a
/// ``StoreWriter``, which is a `StoreReader` too, so code that only reads takes a `StoreReader`
/// (or `some StoreReading`) and serves both.
///
/// ```swift
/// let (count, newest) = try store.read { tx in
///     (try tx.count(Tweet.self), try tx.fetch(Query<Tweet>().sorted(by: Tweet.byCreated).limit(1)))
/// }
/// ```
public class StoreReader {
    /// The store.
    ///
    /// ```swift
    /// print(tx.store.collectionNames)
    /// ```
    public let store: Store
    /// The LMDB transaction underneath (internal: the LMDB layer stays inside TweetieDB).
    @usableFromInline let transaction: ReadTransaction

    init(store: Store, transaction: ReadTransaction) {
        self.store = store
        self.transaction = transaction
    }
}

/// Either kind of store transaction, for code that only reads: a ``StoreReader`` (a
/// ``StoreWriter`` is one).
///
/// ```swift
/// func newest(_ tx: some StoreReading) throws -> [Tweet] {
///     try tx.fetch(Query<Tweet>().sorted(by: Tweet.byCreated).limit(10))
/// }
/// ```
public typealias StoreReading = StoreReader
