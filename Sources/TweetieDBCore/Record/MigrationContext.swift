/// What a ``Migration`` closure receives.
///
/// ```swift
/// Migration(Tweet.self) { context in if context.fromVersion < 2 { … } }
/// ```
public struct MigrationContext {
    /// The transaction the migration runs in.
    ///
    /// ```swift
    /// try context.writer.deleteAll(Tweet.self)
    /// ```
    public let writer: StoreWriter
    /// The schema version stored in the database.
    ///
    /// ```swift
    /// print(context.fromVersion)
    /// ```
    public let fromVersion: Int
    /// The schema version of the record type.
    ///
    /// ```swift
    /// print(context.toVersion)
    /// ```
    public let toVersion: Int
}
