/// A migration of one collection, run when its ``Record/schemaVersion`` goes up.
///
/// It runs in the same write transaction that opens the store and records the new version; if it
/// throws, nothing is changed and opening fails. Indexes of the collection are rebuilt after it
/// runs. Its effects through `context.writer` commit once, but, like any write body (see
/// `Store.write`), the closure may run more than once if the map must grow: it must not count,
/// log or send anything outside the transaction.
///
/// ```swift
/// let migration = Migration(Tweet.self) { context in
///     for tweet in try context.writer.fetch(Query<Tweet>()) {
///         var t = tweet; t.lang = t.lang ?? "en"
///         try context.writer.add(t, update: .all)
///     }
/// }
/// ```
public struct Migration: Sendable {
    let collectionName: String
    let body: @Sendable (_ writer: StoreWriter, _ fromVersion: Int, _ toVersion: Int) throws -> Void

    /// Creates a migration for `type`'s collection.
    ///
    /// ```swift
    /// Migration(Tweet.self) { context in print(context.fromVersion, "→", context.toVersion) }
    /// ```
    public init<R: Record>(_ type: R.Type, _ body: @escaping @Sendable (MigrationContext) throws -> Void) {
        collectionName = R.collectionName
        self.body = { writer, from, to in try body(MigrationContext(writer: writer, fromVersion: from, toVersion: to)) }
    }
}
