import Foundation
import PostgresNIO
import TweetieDB

/// Where a store's replication stands: its cursors and backlog here, and what the server says.
public struct ReplicationStatus: Sendable, Codable, Hashable {
    /// The device id (`nil`: the store never replicated).
    public var deviceID: UUID?
    /// The change-log sequence pushed up to, and the store's last sequence.
    public var pushedSequence: UInt64
    public var lastSequence: UInt64
    /// Change-log entries after the push cursor (they may hold nothing to push).
    public var backlogEntries: UInt64
    /// The pull cursor over `tweetie.changes` (`nil`: never pulled).
    public var pulledTxid: Int64?
    public var pulledChangeID: Int64
    /// What the server says; `nil` when it was not asked.
    public var server: Server?
    /// Why the server could not be asked.
    public var serverError: String?

    public struct Server: Sendable, Codable, Hashable {
        /// The server's schema version.
        public var schemaVersion: Int
        /// Changes after this device's pull cursor (counted up to 1,000,001).
        public var unpulledChanges: Int
        /// Seconds since the oldest change this device has not pulled was made (0: none).
        public var lagSeconds: Double
        /// The device's last error, as it reported it (`nil`: none).
        public var lastError: String?
        /// When the server last heard from the device.
        public var lastSeen: Date?
        /// The devices the server knows.
        public var devices: Int
        /// Conflicts resolved so far, by every device.
        public var conflicts: Int
    }
}

extension Replicator {
    /// This store's replication status; with `askServer`, the server's side too (a failure to
    /// reach it is reported in ``ReplicationStatus/serverError``, not thrown). It writes nothing:
    /// a store that never replicated reports no device and stays as it was.
    public func status(askServer: Bool = true) async throws -> ReplicationStatus {
        let (device, last) = try await store.read { [hasMetadata] reader in
            (hasMetadata ? try reader.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) : nil, try reader.lastChangeSequence())
        }
        var status = ReplicationStatus(deviceID: device?.deviceID, pushedSequence: device?.pushedSequence ?? 0, lastSequence: last,
                                       backlogEntries: last > (device?.pushedSequence ?? 0) ? last - (device?.pushedSequence ?? 0) : 0,
                                       pulledTxid: device?.pulledTxid, pulledChangeID: device?.pulledID ?? 0, server: nil, serverError: nil)
        guard askServer else { return status }
        do {
            status.server = try await PostgresLink.with(configuration.url, logger: logger, timeout: configuration.statementTimeout) { link in
                try await ReplicationSchema.check(on: link)
                let schema = try await ReplicationSchema.installedVersion(on: link) ?? 0
                let txid = String(device?.pulledTxid ?? 0)
                let id = device?.pulledID ?? 0
                let backlog = try await link.rows("""
                    SELECT count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(changed_at)), 0)::float8 FROM (
                        SELECT changed_at FROM tweetie.changes WHERE (txid, id) > (\(txid)::xid8, \(id)) LIMIT 1000001) AS c
                    """)
                let (unpulled, lag) = try backlog.first?.decode((Int64, Double).self) ?? (Int64(0), 0.0)
                var lastError: String?
                var lastSeen: Date?
                if let deviceID = device?.deviceID.uuidString {
                    let rows = try await link.rows("SELECT last_error, last_seen FROM tweetie.devices WHERE device_id = \(deviceID)::uuid")
                    if let row = rows.first { (lastError, lastSeen) = try row.decode((String?, Date?).self) }
                }
                let counts = try await link.rows("SELECT (SELECT count(*) FROM tweetie.devices), (SELECT count(*) FROM tweetie.conflicts)")
                let (devices, conflicts) = try counts.first?.decode((Int64, Int64).self) ?? (Int64(0), Int64(0))
                return ReplicationStatus.Server(schemaVersion: schema, unpulledChanges: Int(unpulled), lagSeconds: lag, lastError: lastError,
                                                 lastSeen: lastSeen, devices: Int(devices), conflicts: Int(conflicts))
            }
        } catch let error as ReplicationError {
            status.serverError = error.message
        }
        return status
    }

    /// Records `error` as this device's last error on the server (best effort).
    public func reportError(_ error: ReplicationError) async {
        guard let device = try? await store.read({ try $0.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) }) else { return }
        let id = device.deviceID.uuidString
        let message = error.message
        _ = try? await PostgresLink.with(configuration.url, logger: logger, timeout: configuration.statementTimeout) { link in
            try await link.rows("UPDATE tweetie.devices SET last_error = \(message), last_seen = now() WHERE device_id = \(id)::uuid")
        }
    }
}
