import Foundation
import GRDB
import TweetieSync

/// The SQLite peer: a GRDB `DatabasePool` (WAL) holding table `tweets` with every field of
/// TweetieSync's `Tweet` and the same two indexes (`created DESC`; `lower(username), created DESC`).
/// Rows map to `Tweet` by column position (see `GRDBPeer+Rows.swift`).
///
/// ```swift
/// let peer = try GRDBPeer(synchronous: .full)
/// try peer.upsert(tweets)
/// let page = try peer.firstPage()
/// ```
public final class GRDBPeer: @unchecked Sendable {
    /// SQLite's `PRAGMA synchronous` level.
    ///
    /// ```swift
    /// GRDBPeer.Synchronous.normal.rawValue // "NORMAL"
    /// ```
    public enum Synchronous: String, Sendable, CaseIterable {
        /// fsync the WAL on every commit.
        case full = "FULL"
        /// fsync only at checkpoints (WAL mode): a commit can be lost on power failure.
        case normal = "NORMAL"
    }

    /// The database pool.
    ///
    /// ```swift
    /// try peer.pool.read { db in try GRDBPeer.timeline(db) }
    /// ```
    public let pool: DatabasePool
    /// The directory holding the database files (removed by ``close()``).
    ///
    /// ```swift
    /// print(peer.directory)
    /// ```
    public let directory: String

    static let upsertSQL = "INSERT INTO tweets (\(columnNames.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columnNames.count).joined(separator: ", "))) ON CONFLICT(id) DO UPDATE SET "
        + columnNames.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// Creates a fresh database in a new temporary directory, WAL mode, the given `synchronous`.
    ///
    /// ```swift
    /// let peer = try GRDBPeer(synchronous: .normal)
    /// ```
    public init(synchronous: Synchronous = .full) throws {
        directory = TemporaryPath.make("grdb")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        pool = try DatabasePool(path: directory + "/db.sqlite")
        // The level is set on the writer, the one connection that commits, after the pool is
        // open: a `DatabasePool` sets its writer to `synchronous = NORMAL` when it turns WAL on
        // (GRDB's `Database.setUpWALMode`), after `Configuration.prepareDatabase` has run, so a
        // level set there holds on the readers only. Until 2026-11-28 the peer did that and checked
        // a reader: every "synchronous=FULL" row measured NORMAL (no sync per commit).
        let applied = try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        guard applied == (synchronous == .full ? 2 : 1) else {
            throw SuiteError("GRDB peer: the writer's PRAGMA synchronous is \(applied ?? -1), expected \(synchronous.rawValue)")
        }
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE tweets (
                    id INTEGER PRIMARY KEY, text TEXT NOT NULL, name TEXT NOT NULL, username TEXT NOT NULL,
                    authorId INTEGER NOT NULL, created REAL NOT NULL, imageURL TEXT NOT NULL,
                    retweetCount INTEGER NOT NULL, favoriteCount INTEGER NOT NULL,
                    inReplyToId INTEGER, isRetweet INTEGER NOT NULL, lang TEXT, lists TEXT NOT NULL);
                CREATE INDEX tweets_created ON tweets(created DESC);
                CREATE INDEX tweets_author ON tweets(lower(username), created DESC);
                """)
        }
    }

    /// Closes the pool and removes the directory.
    ///
    /// ```swift
    /// peer.close()
    /// ```
    public func close() {
        try? pool.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Upserts `tweets` in one transaction with a prepared statement.
    ///
    /// ```swift
    /// try peer.upsert(tweets)
    /// ```
    public func upsert(_ tweets: some Sequence<Tweet>) throws {
        try pool.write { db in try Self.upsert(tweets, in: db) }
    }

    /// Upserts `tweets` with the cached prepared statement of `db`.
    ///
    /// ```swift
    /// try peer.pool.write { db in try GRDBPeer.upsert(tweets, in: db) }
    /// ```
    public static func upsert(_ tweets: some Sequence<Tweet>, in db: GRDB.Database) throws {
        let statement = try db.cachedStatement(sql: upsertSQL)
        for tweet in tweets { try statement.execute(arguments: arguments(of: tweet)) }
    }

    /// `SELECT * FROM tweets ORDER BY created DESC LIMIT 50`, decoded.
    ///
    /// ```swift
    /// let page = try peer.firstPage()
    /// ```
    public func firstPage(limit: Int = 50) throws -> [Tweet] {
        try pool.read { db in try Self.tweets(db, sql: "SELECT * FROM tweets ORDER BY created DESC LIMIT ?", arguments: [limit]) }
    }

    /// Every row `ORDER BY created DESC`, decoded.
    ///
    /// ```swift
    /// let all = try peer.timeline()
    /// ```
    public func timeline() throws -> [Tweet] {
        try pool.read { db in try Self.timeline(db) }
    }

    /// Every row `ORDER BY created DESC`, decoded, in `db`.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(GRDBPeer.timeline)
    /// ```
    @Sendable public static func timeline(_ db: GRDB.Database) throws -> [Tweet] {
        try tweets(db, sql: "SELECT * FROM tweets ORDER BY created DESC")
    }

    /// The number of rows.
    ///
    /// ```swift
    /// print(try peer.count())
    /// ```
    public func count() throws -> Int { try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tweets") ?? 0 } }
}
