import Foundation
import PostgresNIO
import TweetieDB

// Pruning the server's change table, with what one pruning did (PruneSummary).

/// What one pruning of the server's change table did.
public struct PruneSummary: Sendable, Hashable, Codable {
    /// Rows deleted from `tweetie.changes`.
    public var prunedChanges = 0
    /// Tombstones deleted from `tweetie.records` (their delete was pruned from the log).
    public var removedTombstones = 0
    /// Rows deleted from `tweetie.conflicts` (older than the retention).
    public var removedConflicts = 0
    /// The horizon after the pruning, as `(txid, id)`: every change at or below it is gone (`nil`:
    /// nothing was ever pruned).
    public var horizon: (txid: Int64, id: Int64)? {
        guard let horizonTxid else { return nil }
        return (horizonTxid, horizonChangeID)
    }
    var horizonTxid: Int64?
    var horizonChangeID: Int64 = 0
    public init() {}
}

extension Replicator {
    /// Prunes the server's change table: deletes the changes every device seen within
    /// `retention` has pulled, and the changes older than `retention` whoever has not pulled them
    /// (such a device reads a snapshot when it comes back, and loses nothing it wrote). Removes
    /// the tombstones whose delete was pruned and the conflicts older than `retention`.
    ///
    /// It calls the server function `tweetie.prune`, which does nothing when another device pruned
    /// within `minimumInterval` or is pruning now, so every device may call it. ``run(events:)``
    /// calls it every ``ReplicatorConfiguration/pruneInterval``.
    ///
    /// ```swift
    /// let summary = try await replicator.prune(retention: .seconds(7 * 86_400))
    /// ```
    @discardableResult
    public func prune(retention: Duration, minimumInterval: Duration = .zero) async throws -> PruneSummary {
        try await withRegisteredLink { try await prune(on: $0, retention: retention, minimumInterval: minimumInterval) }
    }

    func prune(on link: PostgresLink, retention: Duration, minimumInterval: Duration) async throws -> PruneSummary {
        guard retention >= .zero, minimumInterval >= .zero else {
            throw ReplicationError(.invalidArgument, "The retention (\(retention)) and the minimum interval (\(minimumInterval)) of a pruning must be zero or more.")
        }
        let id = try await device().deviceID.uuidString
        // A device that follows without pulling anything new is still here: the pruning must not
        // count it absent.
        try await link.rows("UPDATE tweetie.devices SET last_seen = now() WHERE device_id = \(id)::uuid")
        let rows = try await link.rows("""
            SELECT pruned_changes, removed_tombstones, removed_conflicts, horizon_txid::text, horizon_id
            FROM tweetie.prune(\(Self.seconds(retention)) * interval '1 second', \(Self.seconds(minimumInterval)) * interval '1 second')
            """)
        var summary = PruneSummary()
        if let row = rows.first {
            let (changes, tombstones, conflicts, txid, changeID) = try row.decode((Int64, Int64, Int64, String?, Int64?).self)
            summary.prunedChanges = Int(changes)
            summary.removedTombstones = Int(tombstones)
            summary.removedConflicts = Int(conflicts)
            summary.horizonTxid = txid.flatMap { Int64($0) }
            summary.horizonChangeID = changeID ?? 0
        }
        if summary.prunedChanges > 0 {
            logger.debug("replication: pruned \(summary.prunedChanges) changes, \(summary.removedTombstones) tombstones.")
        }
        return summary
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
