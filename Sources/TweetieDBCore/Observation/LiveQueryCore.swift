/// The in-memory state of one observed query, and how it learns what changed.
///
/// It keeps, per primary key, the position key under which the record sits in the observer's
/// results. On a wake-up it reads, in one short read transaction, the change-log entries after
/// the last one it applied, and re-reads only the records they name: k changed records cost
/// O(k log N) reads plus O(k log n) in-memory work, never a re-fetch of the n results. Between
/// deliveries no transaction is open.
///
/// The read transaction only copies bytes out of the map (the change-log entries it must decode
/// to know which records to read, then the raw records); decoding the records, matching them
/// against the query and computing their keys happen after it ended. An open read transaction
/// keeps LMDB from reusing every page freed by later commits (from any process), so the shorter
/// it is, the less `data.mdb` grows while writers are busy (RELIABILITY.md, "Multi-process stress").
final class LiveQueryCore<R: Record, Key: Comparable & Sendable> {
    enum Delta {
        case unchanged
        /// The log no longer covers every change (retention, or a bulk change logged without keys):
        /// the complete results, to be delivered as a fresh initial element.
        case reset([(Key, R)])
        case changes([RowChange<Key, R>], contentChanged: Set<[UInt8]>)
    }

    /// A record's primary key and stored bytes, copied out of a read transaction.
    private typealias RawRecord = (primaryKey: [UInt8], bytes: [UInt8])

    /// What one read transaction of ``delta(oldValue:)`` copied out.
    private enum Snapshot {
        case unchanged
        case reset([RawRecord])
        /// Each touched key, whether its bytes were rewritten, and its stored bytes (nil: absent).
        case touched([(primaryKey: [UInt8], rewritten: Bool, bytes: [UInt8]?)])
    }

    let store: Store
    let descriptor: CollectionDescriptor
    let plan: QueryPlan<R>
    let keyOf: (R, [UInt8], EncodedKey) -> Key
    let isModified: ((R, R) -> Bool)?
    private let decoder = RecordDecoder()
    /// Each matching record's results key, by primary key (see ``PrimaryKeyBytes`` for why not `[UInt8]`).
    private(set) var keys: [PrimaryKeyBytes: Key] = [:]
    /// The history position of the results last read.
    private(set) var lastPosition = ChangeLogPosition.origin
    var lastSequence: UInt64 { lastPosition.sequence }

    init(store: Store, query: Query<R>, fields: [ObservedField<R>]?, keyOf: @escaping (R, [UInt8], EncodedKey) -> Key) throws {
        self.store = store
        descriptor = try store.descriptor(for: R.self)
        // The core tracks every matching record; offset and limit are applied when delivering.
        plan = try QueryPlan(query.offset(0).limit(nil), descriptor: descriptor)
        self.keyOf = keyOf
        if let fields {
            isModified = { old, new in fields.contains { $0.differs(old, new) } }
        } else {
            isModified = nil
        }
    }

    /// Reads the complete results and the change-log position they correspond to.
    func initial() throws -> [(Key, R)] {
        let (position, raw) = try store.read { reader in (try reader.changeLogPosition(), try copyWalk(reader)) }
        lastPosition = position
        return try rows(from: raw)
    }

    /// Copies the primary key and bytes of every record the plan's walk visits, in walk order,
    /// in the reader's snapshot (no decoding: that happens after the transaction).
    private func copyWalk(_ reader: StoreReader) throws -> [RawRecord] {
        let transaction = reader.transaction
        var raw: [RawRecord] = []
        if plan.viaIndex {
            try transaction.forEach(in: plan.database, range: plan.range, reverse: plan.reverse) { _, primaryKey in
                guard let bytes = try transaction.rawValue(forRawKey: primaryKey, in: descriptor.records) else {
                    throw descriptor.danglingIndexEntry(key: Array(primaryKey), path: store.path)
                }
                raw.append((Array(primaryKey), Array(bytes)))
                return true
            }
        } else {
            try transaction.forEach(in: plan.database, range: plan.range, reverse: plan.reverse) { primaryKey, bytes in
                raw.append((Array(primaryKey), Array(bytes)))
                return true
            }
        }
        return raw
    }

    private func decode(_ bytes: [UInt8], primaryKey: [UInt8]) throws -> R {
        do {
            return try bytes.withUnsafeBytes { try decoder.decode(R.self, from: $0) }
        } catch {
            throw descriptor.decodingFailed(error, key: primaryKey, typeName: "\(R.self)", path: store.path)
        }
    }

    /// Decodes copied records, keeps those matching the query, keyed and sorted; resets ``keys``.
    private func rows(from raw: [RawRecord]) throws -> [(Key, R)] {
        var rows: [(Key, R)] = []
        var keys: [PrimaryKeyBytes: Key] = [:]
        keys.reserveCapacity(raw.count)
        let predicates = plan.query.predicates
        for (primaryKey, bytes) in raw {
            let record = try decode(bytes, primaryKey: primaryKey)
            guard predicates.allSatisfy({ $0(record) }) else { continue }
            let key = keyOf(record, primaryKey, plan.sortKey(of: record, primaryKey: primaryKey))
            rows.append((key, record))
            keys[PrimaryKeyBytes(primaryKey)] = key
        }
        if !zip(rows, rows.dropFirst()).allSatisfy({ $0.0 < $1.0 }) {
            rows.sort { $0.0 < $1.0 }
        }
        self.keys = keys
        return rows
    }

    /// What changed since the last call, as row changes for the results structure.
    func delta(oldValue: (Key) -> R?) throws -> Delta {
        let snapshot = try store.read { reader -> Snapshot in
            let slice = try reader.changeLog(after: lastSequence)
            lastPosition = slice.lastPosition
            if slice.isTruncated || slice.entries.contains(where: { $0.unlistedCollections.contains(descriptor.name) }) {
                return .reset(try copyWalk(reader))
            }
            // Every key of this collection named by the new entries; whether its bytes were rewritten.
            var touched: [[UInt8]: Bool] = [:]
            for entry in slice.entries {
                for (key, kind) in entry.changes[descriptor.name] ?? [] {
                    touched[key] = (touched[key] ?? false) || kind != .deleted
                }
            }
            if touched.isEmpty { return .unchanged }
            let transaction = reader.transaction
            return .touched(try touched.map { primaryKey, rewritten in
                (primaryKey, rewritten, try transaction.withValue(for: primaryKey, in: descriptor.records) { Array($0) })
            })
        }
        // The transaction has ended: decode, match and diff without holding a snapshot.
        switch snapshot {
        case .unchanged:
            return .unchanged
        case .reset(let raw):
            return .reset(try rows(from: raw))
        case .touched(let touched):
            var changes: [RowChange<Key, R>] = []
            var contentChanged: Set<[UInt8]> = []
            for (primaryKey, rewritten, bytes) in touched {
                let oldKey = keys[PrimaryKeyBytes(primaryKey)]
                var newKey: Key?
                var newValue: R?
                if let bytes {
                    let record = try decode(bytes, primaryKey: primaryKey)
                    if plan.matches(record, primaryKey: primaryKey) {
                        newKey = keyOf(record, primaryKey, plan.sortKey(of: record, primaryKey: primaryKey))
                        newValue = record
                    }
                }
                if oldKey == nil && newKey == nil { continue }
                var changed = rewritten
                if changed, let isModified, let oldKey, let newValue, let old = oldValue(oldKey) {
                    changed = isModified(old, newValue)
                }
                keys[PrimaryKeyBytes(primaryKey)] = newKey
                if oldKey == newKey && !changed { continue }
                if changed { contentChanged.insert(primaryKey) }
                changes.append(RowChange(oldKey: oldKey, newKey: newKey, newValue: newValue, contentChanged: changed))
            }
            return changes.isEmpty ? .unchanged : .changes(changes, contentChanged: contentChanged)
        }
    }
}
