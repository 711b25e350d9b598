import Foundation
import PostgresNIO
import TweetieDB

// The pull, with RemoteRecord: a server value as the pull and the snapshot apply it.

/// A record's current value on the server, decoded and re-encoded in this device's canonical JSON.
struct RemoteRecord: Sendable {
    var collection: ReplicatedCollection
    var key: String
    /// The server version (0: the row is gone).
    var version: Int64
    /// `nil`: deleted.
    var value: RemoteValue?
}

extension Replicator {
    /// Pulls every server change after the pull cursor (a snapshot first for a new device, or for
    /// one behind the server's pruning horizon), in batches; returns when none is left.
    @discardableResult
    public func pull(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) async throws -> PullSummary {
        try await withRegisteredLink { try await pull(on: $0, progress: progress) }
    }

    func pull(on link: PostgresLink, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> PullSummary {
        var summary = PullSummary()
        var device = try await device()
        if try await needsSnapshot(device, on: link) {
            summary.snapshot = true
            let (applied, batches) = try await snapshot(on: link, progress: progress)
            summary.applied += applied
            summary.batches += batches
            device = try await self.device()
            try await reportPullCursor(device, on: link)
        }
        // Batch N is written to the store while batch N+1 is read and decoded, and the cursor
        // batch N-1 reached is reported to the server in the statement that reads N+1: the
        // network, the decoding and the LMDB write overlap instead of taking turns. A write
        // that fails fails the pull; the batch read meanwhile is dropped.
        var cursor = (txid: device.pulledTxid ?? 0, id: device.pulledID)
        var writing: (task: Task<Int, any Error>, cursor: (txid: Int64, id: Int64))?
        var unreported: (txid: Int64, id: Int64)?
        let deviceID = device.deviceID.uuidString
        do {
            while true {
                let report = unreported ?? cursor
                let limit = Int64(configuration.batchSize)
                // Only below the oldest running transaction: nothing can commit there any more.
                let rows = try await link.rows("""
                    WITH reported AS (
                        UPDATE tweetie.devices SET pulled_txid = \(String(report.txid))::xid8, pulled_id = \(report.id), last_seen = now()
                        WHERE device_id = \(deviceID)::uuid AND \(unreported != nil))
                    SELECT c.id, c.txid::text, c.collection, c.key, r.version, r.schema_version, r.record::text
                    FROM (SELECT id, txid, collection, key FROM tweetie.changes
                          WHERE (txid, id) > (\(String(cursor.txid))::xid8, \(cursor.id)) AND txid < pg_snapshot_xmin(pg_current_snapshot())
                          ORDER BY txid, id LIMIT \(limit)) AS c
                    LEFT JOIN tweetie.records r ON r.collection = c.collection AND r.key = c.key
                    ORDER BY c.txid, c.id
                    """)
                unreported = nil
                if let pending = writing {
                    writing = nil
                    summary.applied += try await pending.task.value
                    unreported = pending.cursor
                }
                if rows.isEmpty {
                    // Committed changes past the cursor that are not readable yet: an older
                    // transaction (in any database of the server) still runs. Nothing will wake
                    // the device when it ends, so the caller looks again soon.
                    let later = try await link.rows("""
                        SELECT EXISTS (SELECT 1 FROM tweetie.changes WHERE (txid, id) > (\(String(cursor.txid))::xid8, \(cursor.id)))
                        """)
                    summary.waiting = try later.first?.decode(Bool.self) ?? false
                    break
                }
                var coders = Coders()
                var latest: [String: RemoteRecord] = [:]
                var order: [String] = []
                for row in rows {
                    let (changeID, txidText, name, key, version, schemaVersion, record) =
                        try row.decode((Int64, String, String, String, Int64?, Int32?, String?).self)
                    cursor = (Int64(txidText) ?? 0, changeID)
                    // Every row of a key carries the same current value (joined in one statement):
                    // it is decoded once.
                    let id = ReplicatedKeyRecord.id(collection: name, key: key)
                    guard let collection = byName[name], latest[id] == nil else { continue }
                    latest[id] = try remoteRecord(collection, key: key, version: version, schemaVersion: schemaVersion, record: record, coder: coders[collection])
                    order.append(id)
                }
                let remotes = order.compactMap { latest[$0] }
                let finalCursor = cursor
                summary.changes += rows.count
                summary.batches += 1
                writing = (Task {
                    try await self.store.write { writer in
                        let applied = try self.apply(remotes, writer: writer)
                        try self.setPullCursor(writer, txid: finalCursor.txid, id: finalCursor.id)
                        return applied
                    }
                }, finalCursor)
            }
        } catch {
            // The store is not left with a write in flight when the caller goes on (or closes it).
            if let pending = writing { _ = try? await pending.task.value }
            throw error
        }
        if unreported != nil {
            try await reportPullCursor(try await self.device(), on: link)
        }
        return summary
    }

    /// Decodes a server row for this device: its schema version must not be newer than the local
    /// record type's, and its JSON must decode with the key it is stored under.
    func remoteRecord(_ collection: ReplicatedCollection, key: String, version: Int64?, schemaVersion: Int32?, record: String?,
                      coder: any RecordCoding) throws -> RemoteRecord {
        if let schemaVersion, Int(schemaVersion) > collection.schemaVersion, record != nil {
            throw ReplicationError(.newerRecordSchema,
                                   "The record \(collection.name)/\(key) on the server has schema version \(schemaVersion), newer than this device's \(collection.recordType) (version \(collection.schemaVersion)): upgrade this device before it replicates \(collection.name).")
        }
        let value = try record.map { try coder.decode(key: key, json: $0) }
        return RemoteRecord(collection: collection, key: key, version: version ?? 0, value: value)
    }

    /// Applies server values: a record without unpushed local changes takes the server's value;
    /// one with unpushed changes keeps them (its push resolves the conflict). Returns how many
    /// records were written.
    func apply(_ remotes: [RemoteRecord], writer: StoreWriter) throws -> Int {
        var applied = 0
        var coders = Coders()
        for remote in remotes {
            let coder = coders[remote.collection]
            let local = try coder.localJSON(writer, key: remote.key)
            let id = ReplicatedKeyRecord.id(collection: remote.collection.name, key: remote.key)
            let meta = try writer.get(ReplicatedKeyRecord.self, key: id)
            let localDigest = RecordDigest.of(json: local)
            let remoteDigest = RecordDigest.of(json: remote.value?.json)
            if localDigest == (meta?.digest ?? RecordDigest.absent) {
                if localDigest != remoteDigest {
                    try coder.apply(writer, key: remote.key, value: remote.value)
                    applied += 1
                }
            } else if localDigest != remoteDigest {
                continue
            }
            try Self.setKeyState(writer, id: id, existing: meta, version: remote.version, digest: remoteDigest)
        }
        return applied
    }

    /// Moves the pull cursor, in the transaction that applied the changes up to it. When the push
    /// cursor is at the end of the log, it moves past this transaction's own entry too: what a
    /// pull writes is the server's already.
    func setPullCursor(_ writer: StoreWriter, txid: Int64, id: Int64) throws {
        guard var device = try writer.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) else {
            throw ReplicationError(.storeNotReplicable, "The store's replication state disappeared while pulling.")
        }
        device.pulledTxid = txid
        device.pulledID = id
        let last = try writer.lastChangeSequence()
        if device.pushedSequence == last { device.pushedSequence = last + 1 }
        try writer.add(device, update: .all)
    }

    /// Tells the server how far this device has pulled (for `status` and for pruning); losing
    /// this write loses nothing, the next pull repeats it.
    func reportPullCursor(_ device: ReplicationDeviceRecord, on link: PostgresLink) async throws {
        guard let txid = device.pulledTxid else { return }
        let id = device.deviceID.uuidString
        try await link.rows("""
            UPDATE tweetie.devices SET pulled_txid = \(String(txid))::xid8, pulled_id = \(device.pulledID), last_seen = now()
            WHERE device_id = \(id)::uuid
            """)
    }

    /// Whether the device must read a snapshot: it never pulled, or the changes after its cursor
    /// were pruned.
    func needsSnapshot(_ device: ReplicationDeviceRecord, on link: PostgresLink) async throws -> Bool {
        guard let txid = device.pulledTxid else { return true }
        let rows = try await link.rows("""
            SELECT (\(String(txid))::xid8, \(device.pulledID)) < (h.txid, h.id) FROM tweetie.horizon h
            """)
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// Reads every replicated record in one consistent snapshot and applies it in batches; local
    /// records the server no longer has are deleted unless they have unpushed changes. The pull
    /// cursor then stands at the snapshot's oldest running transaction, so changes committed
    /// around it are read again (applying a value twice changes nothing).
    func snapshot(on link: PostgresLink, progress: (@Sendable (Int, Int) -> Void)?) async throws -> (applied: Int, batches: Int) {
        let names = collections.map(\.name)
        let countRows = try await link.rows("SELECT count(*) FROM tweetie.records WHERE collection = ANY(\(names)::text[]) AND NOT deleted")
        let total = Int(try countRows.first?.decode(Int64.self) ?? 0)
        progress?(0, total)
        return try await link.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { link in
            let xminRows = try await link.rows("SELECT pg_snapshot_xmin(pg_current_snapshot())::text")
            let xmin = Int64(try xminRows.first?.decode(String.self) ?? "0") ?? 0
            var seen = Set<String>()
            var applied = 0
            var batches = 0
            var done = 0
            var pending: [RemoteRecord] = []
            var coders = Coders()
            // One batch is written while the next is read and decoded (as in the pull).
            var writing: Task<Int, any Error>?
            func flush(final: Bool) async throws {
                let batch = pending
                pending = []
                pending.reserveCapacity(configuration.batchSize)
                let seenNow = final ? seen : []
                if let previous = writing {
                    writing = nil
                    applied += try await previous.value
                }
                let write = Task {
                    try await self.store.write { writer in
                        var applied = try self.apply(batch, writer: writer)
                        if final {
                            applied += try self.removeVanished(seen: seenNow, writer: writer)
                            try self.setPullCursor(writer, txid: xmin, id: 0)
                        }
                        return applied
                    }
                }
                batches += 1
                if final {
                    applied += try await write.value
                } else {
                    writing = write
                }
            }
            func settle() async {
                if let previous = writing { _ = try? await previous.value }
                writing = nil
            }
            let sequence: PostgresRowSequence
            do {
                sequence = try await link.connection.query("""
                    SELECT collection, key, version, schema_version, record::text FROM tweetie.records
                    WHERE collection = ANY(\(names)::text[]) AND NOT deleted ORDER BY collection, key
                    """, logger: link.logger)
            } catch {
                throw PostgresLink.describe(error, url: link.url)
            }
            do {
                for try await row in sequence {
                    let (name, key, version, schemaVersion, record) = try row.decode((String, String, Int64, Int32?, String?).self)
                    guard let collection = byName[name] else { continue }
                    pending.append(try remoteRecord(collection, key: key, version: version, schemaVersion: schemaVersion, record: record,
                                                    coder: coders[collection]))
                    seen.insert(ReplicatedKeyRecord.id(collection: name, key: key))
                    done += 1
                    if pending.count >= configuration.batchSize {
                        try await flush(final: false)
                        progress?(done, max(total, done))
                    }
                }
            } catch let error as ReplicationError {
                await settle()
                throw error
            } catch {
                await settle()
                throw PostgresLink.describe(error, url: link.url)
            }
            do {
                try await flush(final: true)
            } catch {
                await settle()
                throw error
            }
            progress?(done, max(total, done))
            return (applied, batches)
        }
    }

    /// After a snapshot: deletes the local records the server had once (a known version) but no
    /// longer has, unless they have unpushed changes.
    func removeVanished(seen: Set<String>, writer: StoreWriter) throws -> Int {
        var vanished: [ReplicatedKeyRecord] = []
        try writer.forEach(Query<ReplicatedKeyRecord>()) { meta in
            if meta.version > 0, !seen.contains(meta.id) { vanished.append(meta) }
            return true
        }
        var removed = 0
        var coders = Coders()
        for meta in vanished {
            guard let slash = meta.id.firstIndex(of: "/"), let collection = byName[String(meta.id[..<slash])] else { continue }
            let key = String(meta.id[meta.id.index(after: slash)...])
            let coder = coders[collection]
            let local = try coder.localJSON(writer, key: key)
            guard RecordDigest.of(json: local) == meta.digest else { continue }
            if local != nil {
                try coder.apply(writer, key: key, value: nil)
                removed += 1
            }
            try Self.setKeyState(writer, id: meta.id, existing: meta, version: 0, digest: RecordDigest.absent)
        }
        return removed
    }
}
