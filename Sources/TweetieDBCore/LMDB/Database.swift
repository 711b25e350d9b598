/// A named LMDB database (a DBI): a sorted key–value map inside an ``Environment``.
///
/// Obtain one with ``Environment/database(named:create:)`` at start; the handle stays valid for the
/// environment's lifetime and may be used from any thread.
///
/// ```swift
/// let tweets = try env.database(named: "tweets")
/// ```
@usableFromInline struct Database: Sendable, Hashable {
    /// The database's name, or `nil` for LMDB's unnamed main database.
    ///
    /// ```swift
    /// print(tweets.name ?? "(main)")
    /// ```
    @usableFromInline let name: String?
    let dbi: LMDB.DBI

    var displayName: String { name ?? "(main)" }
}
