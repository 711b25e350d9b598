import Foundation
import GRDB

// Suite 7's GRDB side: the peer's table written and read through a `Codable` record type
// (`GRDBCodableTweet`), as GRDB's users write it, rather than by column position.
extension GRDBPeer {
    /// Upserts `records` in one transaction, each with the record's own `upsert` (`INSERT … ON
    /// CONFLICT DO UPDATE`, encoded by GRDB's `Codable` support).
    ///
    /// ```swift
    /// try peer.upsertRecords(tweets.map(GRDBCodableTweet.init))
    /// ```
    func upsertRecords(_ records: [GRDBCodableTweet]) throws {
        try pool.write { db in
            for record in records { try record.upsert(db) }
        }
    }

    /// Every row `ORDER BY created DESC`, decoded by GRDB's `Codable` support.
    ///
    /// ```swift
    /// let all = try peer.recordTimeline()
    /// ```
    func recordTimeline() throws -> [GRDBCodableTweet] {
        try pool.read { db in try GRDBCodableTweet.order(Column("created").desc).fetchAll(db) }
    }
}
