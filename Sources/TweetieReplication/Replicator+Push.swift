import Foundation
import PostgresNIO
import TweetieDB

// The push, with the values it passes between its local read, its server transaction and its
// local write (PushItem, PushOutcome, PushPlan).

/// A record with local changes the server has not seen.
struct PushItem: Sendable {
    var collection: ReplicatedCollection
    var key: String
    /// The local record's canonical JSON (`nil`: deleted).
    var local: String?
    /// The server version and digest this device last saw for the key.
    var baseVersion: Int64
    var baseDigest: UInt64
}

/// What the server holds for a pushed key once its batch committed.
struct PushOutcome: Sendable {
    var version: Int64
    /// The value on the server (`nil`: deleted or absent).
    var value: String?
    /// Whether the local record takes ``value`` (a conflict the server's value or a merge won).
    var replacesLocal: Bool
    var wrote: Bool
    var conflict: Bool
}

/// The keys changed after the push cursor, and how far they reach in the change log. Their
/// values are read a batch at a time (``Replicator/items(of:from:reader:)``), while the batch
/// before is on the server.
struct PushPlan: Sendable {
    var candidates: [(collection: ReplicatedCollection, key: String)] = []
    /// The last change-log sequence the plan covers.
    var endSequence: UInt64 = 0
    /// The log's last sequence when the plan was read.
    var lastSequence: UInt64 = 0
    var reconciled = false
}

extension Replicator {
    /// Pushes every local change made since the push cursor, in batches; returns when none is left.
    @discardableResult
    public func push() async throws -> PushSummary {
        try await withRegisteredLink { try await push(on: $0) }
    }

    func push(on link: PostgresLink) async throws -> PushSummary {
        var summary = PushSummary()
        // Four things overlap: the server's transaction for batch N, the local read (and JSON)
        // of batch N+1 or of the plan after this one, and the local write of batch N-1's
        // outcomes. A plan whose keys meet a batch whose local write may not have committed when
        // the plan was read is read again once it has, so it never compares against versions
        // that write was to record. The batches of one plan have no key in common.
        var pending: (task: Task<Void, any Error>, keys: Set<String>)?
        func settle() async throws {
            if let write = pending {
                pending = nil
                try await write.task.value
            }
        }
        do {
            var device = try await device()
            var plan = try await store.read { [sequence = device.pushedSequence] in try self.plan(after: sequence, reader: $0) }
            while true {
                summary.reconciled = summary.reconciled || plan.reconciled
                var (chunk, position) = try await store.read { [plan] in try self.items(of: plan, from: 0, reader: $0) }
                if chunk.isEmpty {
                    try await settle()
                    device = try await self.device()
                    if plan.endSequence > device.pushedSequence || plan.lastSequence > device.pushedSequence {
                        try await advanceCursor(plan: plan, outcomes: [], items: [])
                    }
                    if plan.endSequence >= plan.lastSequence { return summary }
                    device = try await self.device()
                    plan = try await store.read { [sequence = device.pushedSequence] in try self.plan(after: sequence, reader: $0) }
                    continue
                }
                var next: PushPlan?
                // The keys whose local write may not have committed when `next` was read: the
                // write in flight then, and the last chunk's, which starts after.
                var unsettled = Set<String>()
                var covered = false
                while !chunk.isEmpty {
                    let isLast = position == plan.candidates.count
                    let sender = device, endSequence = plan.endSequence, batch = chunk
                    async let sent = pushBatch(batch, device: sender, sequence: endSequence, on: link)
                    var following: (items: [PushItem], position: Int) = ([], position)
                    if !isLast {
                        following = try await store.read { [plan, position] in try self.items(of: plan, from: position, reader: $0) }
                    } else if plan.endSequence < plan.lastSequence {
                        unsettled = pending?.keys ?? []
                        next = try await store.read { [sequence = plan.endSequence] in try self.plan(after: sequence, reader: $0) }
                    }
                    let outcomes = try await sent
                    summary.batches += 1
                    summary.pushed += outcomes.filter(\.wrote).count
                    summary.adopted += outcomes.filter { !$0.wrote && !$0.conflict }.count
                    summary.conflicts += outcomes.filter(\.conflict).count
                    try await settle()
                    let keys = Set(batch.map { ReplicatedKeyRecord.id(collection: $0.collection.name, key: $0.key) })
                    let finished = isLast ? plan : nil
                    pending = (Task { try await self.advanceCursor(plan: finished, outcomes: outcomes, items: batch) }, keys)
                    if isLast {
                        unsettled.formUnion(keys)
                        covered = true
                    }
                    (chunk, position) = following
                }
                if !covered {
                    // The plan's last keys needed no push: the cursor still moves past them.
                    try await settle()
                    try await advanceCursor(plan: plan, outcomes: [], items: [])
                    if plan.endSequence < plan.lastSequence {
                        next = try await store.read { [sequence = plan.endSequence] in try self.plan(after: sequence, reader: $0) }
                    }
                }
                guard var following = next else {
                    try await settle()
                    return summary
                }
                if following.candidates.contains(where: { unsettled.contains(ReplicatedKeyRecord.id(collection: $0.collection.name, key: $0.key)) }) {
                    try await settle()
                    following = try await store.read { [sequence = plan.endSequence] in try self.plan(after: sequence, reader: $0) }
                }
                plan = following
            }
        } catch {
            // The store is not left with a write in flight when the caller goes on (or closes it).
            if let write = pending { _ = try? await write.task.value }
            throw error
        }
    }

    /// Reads the keys changed after `sequence` (whole log entries, until about a batch of keys),
    /// or every key when the log no longer reaches back there. Which of them differ from what the
    /// server last had is read a batch at a time, by ``items(of:from:reader:)``.
    func plan(after sequence: UInt64, reader: StoreReader) throws -> PushPlan {
        var plan = PushPlan()
        let slice = try reader.changeLog(after: sequence)
        plan.lastSequence = slice.lastSequence
        var candidates: [(ReplicatedCollection, String)] = []
        var seen = Set<String>()
        var reconcile = Set<String>()
        if slice.isTruncated || sequence > slice.lastSequence {
            reconcile = Set(byName.keys)
            plan.endSequence = slice.lastSequence
        } else {
            plan.endSequence = sequence
            for entry in slice.entries {
                for name in entry.unlistedCollections where byName[name] != nil { reconcile.insert(name) }
                for (name, changes) in entry.changes {
                    guard let collection = byName[name], !reconcile.contains(name) else { continue }
                    for change in changes {
                        let key = try collection.keyText(change.key)
                        if seen.insert(ReplicatedKeyRecord.id(collection: name, key: key)).inserted {
                            candidates.append((collection, key))
                        }
                    }
                }
                plan.endSequence = entry.sequence
                if candidates.count >= configuration.batchSize { break }
            }
            if plan.endSequence >= slice.lastSequence { plan.endSequence = slice.lastSequence }
        }
        if !reconcile.isEmpty {
            plan.reconciled = true
            for name in reconcile.sorted() {
                guard let collection = byName[name] else { continue }
                var keys = try collection.localKeys(reader)
                try reader.forEach(Query<ReplicatedKeyRecord>()) { meta in
                    if meta.id.hasPrefix(name + "/") { keys.append(String(meta.id.dropFirst(name.count + 1))) }
                    return true
                }
                for key in keys where seen.insert(ReplicatedKeyRecord.id(collection: name, key: key)).inserted {
                    candidates.append((collection, key))
                }
            }
        }
        plan.candidates = candidates
        return plan
    }

    /// The plan's keys from `start` whose record differs from what the server last had, with
    /// their local values, up to a batch of them; and where the next batch starts.
    func items(of plan: PushPlan, from start: Int, reader: StoreReader) throws -> (items: [PushItem], position: Int) {
        var items: [PushItem] = []
        var coders = Coders()
        var position = start
        while position < plan.candidates.count, items.count < configuration.batchSize {
            let (collection, key) = plan.candidates[position]
            position += 1
            let local = try coders[collection].localJSON(reader, key: key)
            let meta = try reader.get(ReplicatedKeyRecord.self, key: ReplicatedKeyRecord.id(collection: collection.name, key: key))
            let baseDigest = meta?.digest ?? RecordDigest.absent
            guard RecordDigest.of(json: local) != baseDigest else { continue }
            items.append(PushItem(collection: collection, key: key, local: local,
                                  baseVersion: meta?.version ?? 0, baseDigest: baseDigest))
        }
        return (items, position)
    }

    /// One server transaction: locks the batch's keys, reads what the server holds and, in the
    /// same statement, writes each key the server still has at the version the device last saw;
    /// then resolves the rest's conflicts, writes their winners, logs the losers, and records the
    /// device's cursor.
    func pushBatch(_ items: [PushItem], device: ReplicationDeviceRecord, sequence: UInt64, on link: PostgresLink) async throws -> [PushOutcome] {
        let names = items.map(\.collection.name)
        let keys = items.map(\.key)
        let values = items.map { $0.local ?? "" }
        let gone = items.map { $0.local == nil }
        let bases = items.map(\.baseVersion)
        let baseAbsent = items.map { $0.baseDigest == RecordDigest.absent }
        let schemas = items.map { Int32($0.collection.schemaVersion) }
        let deviceID = device.deviceID.uuidString
        let sequenceText = String(sequence)
        return try await link.transaction { link in
            var coders = Coders()
            // Devices lock the keys they push in one order, so two pushing the same keys wait
            // for each other instead of deadlocking, and a key absent on the server is held too.
            // A lock stands for a bucket of keys (1,024 buckets under one class id of their own):
            // a lock per key would take a lock-table entry per key, and PostgreSQL's table (64
            // per connection by default) runs out at batches of tens of thousands.
            try await link.rows("""
                SELECT set_config('tweetie.device', \(deviceID), true), set_config('tweetie.sequence', \(sequenceText), true),
                       (SELECT count(*) FROM (
                            SELECT pg_advisory_xact_lock(\(Self.keyLockClass), b) FROM (
                                SELECT DISTINCT (hashtextextended(c || '/' || k, 0) & 1023)::int AS b
                                FROM unnest(\(names)::text[], \(keys)::text[]) AS u(c, k)
                            ) AS buckets ORDER BY b
                        ) AS locked)
                """)
            // A key the server holds at the version the device last saw (or does not hold, as the
            // device last saw it) takes the pushed value at once: the common case costs one
            // statement, and the values cross the network and are parsed as JSON once. Where the
            // server still has that version its value cannot be the pushed one (that one's digest
            // would have matched, and nothing would be pushed), so the comparison and the
            // server's value as text are only made where the versions differ. The statement's
            // parts see the records as they were before its write.
            let rows = try await link.rows("""
                WITH i AS MATERIALIZED (
                    SELECT i.n, i.c, i.k, i.v, i.gone, i.base, i.absent, i.s,
                           r.version AS rv, r.deleted AS rdel, r.record AS rrec, r.origin_device AS rorigin
                    FROM unnest(\(names)::text[], \(keys)::text[], \(values)::text[], \(gone)::bool[], \(bases)::int8[],
                                \(baseAbsent)::bool[], \(schemas)::int4[]) WITH ORDINALITY AS i(c, k, v, gone, base, absent, s, n)
                    LEFT JOIN tweetie.records r ON r.collection = i.c AND r.key = i.k
                ), w AS (
                    INSERT INTO tweetie.records AS r (collection, key, record, schema_version)
                    SELECT c, k, CASE WHEN gone THEN NULL ELSE v::jsonb END, s FROM i
                    WHERE CASE WHEN rv IS NULL THEN absent ELSE rv = base END AND NOT (gone AND (rv IS NULL OR rdel))
                    ON CONFLICT (collection, key) DO UPDATE SET record = EXCLUDED.record, schema_version = EXCLUDED.schema_version
                    RETURNING r.collection, r.key, r.version
                )
                SELECT i.n, i.rv, i.rdel, w.version,
                       CASE WHEN w.version IS NOT NULL OR i.rv = i.base THEN NULL ELSE i.rrec::text END, i.rorigin::text,
                       CASE WHEN i.rv IS NULL OR i.rv = i.base THEN false WHEN i.gone THEN i.rrec IS NULL ELSE i.rrec = i.v::jsonb END
                FROM i LEFT JOIN w ON w.collection = i.c AND w.key = i.k
                ORDER BY i.n
                """)
            var outcomes: [PushOutcome] = []
            var writes: [Int] = []
            var writeValues: [String?] = []
            var conflicts: [(index: Int, losing: String?, losingOrigin: String?, winning: String?, winningOrigin: String?)] = []
            for row in rows {
                let (n, version, deleted, written, record, origin, same) = try row.decode((Int64, Int64?, Bool?, Int64?, String?, String?, Bool?).self)
                let index = Int(n) - 1
                let item = items[index]
                let present = version != nil && deleted == false
                let serverVersion = version ?? 0
                let unchangedOnServer = version == nil ? item.baseDigest == RecordDigest.absent : serverVersion == item.baseVersion
                let adopts = same == true || (item.local == nil && !present)
                guard (written != nil) == (unchangedOnServer && !adopts) else {
                    throw ReplicationError(.server, "PostgreSQL at \(link.url) wrote \(item.collection.name)/\(item.key) against the push's rule (version \(serverVersion), last seen \(item.baseVersion)).")
                }
                if let written {
                    outcomes.append(PushOutcome(version: written, value: item.local, replacesLocal: false, wrote: true, conflict: false))
                    continue
                }
                if adopts {
                    outcomes.append(PushOutcome(version: serverVersion, value: item.local, replacesLocal: false, wrote: false, conflict: false))
                    continue
                }
                let remote = try present ? record.map { try coders[item.collection].decode(key: item.key, json: $0).json } : nil
                var base: String?
                if item.collection.policyName == "resolver", item.baseVersion > 0, item.baseDigest != RecordDigest.absent {
                    let baseRows = try await link.rows("""
                        SELECT record::text FROM tweetie.changes WHERE collection = \(item.collection.name) AND key = \(item.key)
                            AND version = \(item.baseVersion) AND NOT deleted LIMIT 1
                        """)
                    if let json = try baseRows.first?.decode(String?.self) { base = try? coders[item.collection].decode(key: item.key, json: json).json }
                }
                let resolution = try item.collection.resolve(item.key, item.local, remote, base)
                let winner: String?
                switch resolution {
                case .keepLocal: winner = item.local
                case .keepRemote: winner = remote
                case .write(let value): winner = value
                }
                if winner == remote {
                    conflicts.append((index, item.local, deviceID, remote, origin))
                    outcomes.append(PushOutcome(version: serverVersion, value: remote, replacesLocal: true, wrote: false, conflict: true))
                } else {
                    conflicts.append((index, remote, origin, winner, deviceID))
                    writes.append(index)
                    writeValues.append(winner)
                    outcomes.append(PushOutcome(version: 0, value: winner, replacesLocal: winner != item.local, wrote: true, conflict: true))
                }
            }
            if !writes.isEmpty {
                let writeNames = writes.map { items[$0].collection.name }
                let writeKeys = writes.map { items[$0].key }
                let writeJSON = writeValues.map { $0 ?? "" }
                let writeGone = writeValues.map { $0 == nil }
                let writeSchema = writes.map { Int32(items[$0].collection.schemaVersion) }
                let written = try await link.rows("""
                    INSERT INTO tweetie.records AS r (collection, key, record, schema_version)
                    SELECT c, k, CASE WHEN g THEN NULL ELSE v::jsonb END, s
                    FROM unnest(\(writeNames)::text[], \(writeKeys)::text[], \(writeJSON)::text[], \(writeGone)::bool[], \(writeSchema)::int4[]) AS u(c, k, v, g, s)
                    ON CONFLICT (collection, key) DO UPDATE SET record = EXCLUDED.record, schema_version = EXCLUDED.schema_version
                    RETURNING r.collection, r.key, r.version
                    """)
                var versions: [String: Int64] = [:]
                for row in written {
                    let (name, key, version) = try row.decode((String, String, Int64).self)
                    versions[ReplicatedKeyRecord.id(collection: name, key: key)] = version
                }
                for index in writes {
                    let id = ReplicatedKeyRecord.id(collection: items[index].collection.name, key: items[index].key)
                    guard let version = versions[id] else {
                        throw ReplicationError(.server, "PostgreSQL at \(link.url) did not return the version of \(id) after writing it.")
                    }
                    outcomes[index].version = version
                }
            }
            if !conflicts.isEmpty {
                let cNames = conflicts.map { items[$0.index].collection.name }
                let cKeys = conflicts.map { items[$0.index].key }
                let cPolicy = conflicts.map { items[$0.index].collection.policyName }
                let losing = conflicts.map { $0.losing ?? "" }
                let losingGone = conflicts.map { $0.losing == nil }
                let losingOrigin = conflicts.map { $0.losingOrigin ?? "" }
                let winning = conflicts.map { $0.winning ?? "" }
                let winningGone = conflicts.map { $0.winning == nil }
                let winningOrigin = conflicts.map { $0.winningOrigin ?? "" }
                try await link.rows("""
                    INSERT INTO tweetie.conflicts (collection, key, resolution, losing_record, losing_deleted, losing_origin,
                                                   winning_record, winning_deleted, winning_origin, resolved_by)
                    SELECT c, k, p, CASE WHEN lg THEN NULL ELSE l::jsonb END, lg, NULLIF(lo, '')::uuid,
                           CASE WHEN wg THEN NULL ELSE w::jsonb END, wg, NULLIF(wo, '')::uuid, \(deviceID)::uuid
                    FROM unnest(\(cNames)::text[], \(cKeys)::text[], \(cPolicy)::text[], \(losing)::text[], \(losingGone)::bool[],
                                \(losingOrigin)::text[], \(winning)::text[], \(winningGone)::bool[], \(winningOrigin)::text[])
                         AS u(c, k, p, l, lg, lo, w, wg, wo)
                    """)
            }
            let pushed = Int64(sequence)
            try await link.rows("""
                UPDATE tweetie.devices SET pushed_sequence = GREATEST(pushed_sequence, \(pushed)), last_seen = now(), last_error = NULL
                WHERE device_id = \(deviceID)::uuid
                """)
            return outcomes
        }
    }

    /// The local half of a pushed batch: each key's server version (and, where a conflict's
    /// winner was not the local value, that winner), then the push cursor when `plan` is given.
    /// A key written again locally since the plan keeps its new value, which the next push sends.
    func advanceCursor(plan: PushPlan?, outcomes: [PushOutcome], items: [PushItem]) async throws {
        try await store.write { writer in
            var coders = Coders()
            for (item, outcome) in zip(items, outcomes) {
                if outcome.replacesLocal, try coders[item.collection].localJSON(writer, key: item.key) == item.local {
                    let coder = coders[item.collection]
                    try coder.apply(writer, key: item.key, value: try outcome.value.map { try coder.decode(key: item.key, json: $0) })
                }
                try Self.setKeyState(writer, collection: item.collection.name, key: item.key,
                                     version: outcome.version, digest: RecordDigest.of(json: outcome.value))
            }
            guard let plan, var device = try writer.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) else { return }
            // When the plan reached the end of the log and nothing was committed since, this
            // transaction's own entry (versions and winners only: nothing to push) is covered too.
            let last = try writer.lastChangeSequence()
            let reachedEnd = plan.endSequence >= plan.lastSequence && last == plan.lastSequence
            let target = reachedEnd ? last + 1 : plan.endSequence
            guard target > device.pushedSequence else { return }
            device.pushedSequence = target
            try writer.add(device, update: .all)
        }
    }

    /// The class id of the advisory locks a push takes on its keys' buckets (the first half of
    /// `pg_advisory_xact_lock(int4, int4)`): `hashtext('tweetie.records')`, so that other users of
    /// advisory locks in the database do not meet them by chance.
    static let keyLockClass: Int32 = -760_480_106

    /// Records a key's server version and digest, writing only when they changed.
    static func setKeyState(_ writer: StoreWriter, collection: String, key: String, version: Int64, digest: UInt64) throws {
        let id = ReplicatedKeyRecord.id(collection: collection, key: key)
        try setKeyState(writer, id: id, existing: try writer.get(ReplicatedKeyRecord.self, key: id), version: version, digest: digest)
    }

    /// The same, for a caller that has just read the key's state (`existing`, `nil`: none).
    static func setKeyState(_ writer: StoreWriter, id: String, existing: ReplicatedKeyRecord?, version: Int64, digest: UInt64) throws {
        if existing?.version == version && existing?.digest == digest { return }
        if version == 0 && digest == RecordDigest.absent {
            if existing != nil { _ = try writer.delete(ReplicatedKeyRecord.self, key: id) }
            return
        }
        try writer.add(ReplicatedKeyRecord(id: id, version: version, digest: digest), update: .all)
    }
}
