/// The in-memory state of one observed query, and how it learns what changed.
///
/// It keeps, per primary key, the position key under which the record sits in the observer's
/// results. On a wake-up it reads, in one short read transaction, the change-log entries after
/// the last one it applied, and re-reads only the records they name: k changed records cost
/// O(k log N) reads plus O(k log n) in-memory work, never a re-fetch of the n results. Between
/// deliveries no transaction is open.
final class LiveQueryCore<R: Record, Key: Comparable & Sendable> {
    enum Delta {
        case unchanged
        /// The log no longer covers every change (retention, or a bulk change logged without keys):
        /// the complete results, to be delivered as a fresh initial element.
        case reset([(Key, R)])
        case changes([RowChange<Key, R>], contentChanged: Set<[UInt8]>)
    }

    let store: Store
    let descriptor: CollectionDescriptor
    let plan: QueryPlan<R>
    let keyOf: (R, [UInt8], EncodedKey) -> Key
    let isModified: ((R, R) -> Bool)?
    private(set) var keys: [[UInt8]: Key] = [:]
    private(set) var lastSequence: UInt64 = 0

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
        try store.read { reader in
            lastSequence = try reader.lastChangeSequence()
            return try fetchAll(reader)
        }
    }

    private func fetchAll(_ reader: StoreReader) throws -> [(Key, R)] {
        var rows: [(Key, R)] = []
        var keys: [[UInt8]: Key] = [:]
        try reader.forEachEntry(plan.query) { record, primaryKey, sortKey in
            let key = keyOf(record, primaryKey, sortKey)
            rows.append((key, record))
            keys[primaryKey] = key
            return true
        }
        if !zip(rows, rows.dropFirst()).allSatisfy({ $0.0 < $1.0 }) {
            rows.sort { $0.0 < $1.0 }
        }
        self.keys = keys
        return rows
    }

    /// What changed since the last call, as row changes for the results structure.
    func delta(oldValue: (Key) -> R?) throws -> Delta {
        try store.read { reader in
            let slice = try reader.changeLog(after: lastSequence)
            defer { lastSequence = slice.lastSequence }
            if slice.isTruncated || slice.entries.contains(where: { $0.unlistedCollections.contains(descriptor.name) }) {
                return .reset(try fetchAll(reader))
            }
            // Every key of this collection named by the new entries; whether its bytes were rewritten.
            var touched: [[UInt8]: Bool] = [:]
            for entry in slice.entries {
                for (key, kind) in entry.changes[descriptor.name] ?? [] {
                    touched[key] = (touched[key] ?? false) || kind != .deleted
                }
            }
            if touched.isEmpty { return .unchanged }
            var changes: [RowChange<Key, R>] = []
            var contentChanged: Set<[UInt8]> = []
            for (primaryKey, rewritten) in touched {
                let oldKey = keys[primaryKey]
                var newKey: Key?
                var newValue: R?
                if let record = try reader.get(R.self, encodedKey: primaryKey, descriptor: descriptor),
                   plan.matches(record, primaryKey: primaryKey) {
                    newKey = keyOf(record, primaryKey, plan.sortKey(of: record, primaryKey: primaryKey))
                    newValue = record
                }
                if oldKey == nil && newKey == nil { continue }
                var changed = rewritten
                if changed, let isModified, let oldKey, let newValue, let old = oldValue(oldKey) {
                    changed = isModified(old, newValue)
                }
                keys[primaryKey] = newKey
                if oldKey == newKey && !changed { continue }
                if changed { contentChanged.insert(primaryKey) }
                changes.append(RowChange(oldKey: oldKey, newKey: newKey, newValue: newValue, contentChanged: changed))
            }
            return changes.isEmpty ? .unchanged : .changes(changes, contentChanged: contentChanged)
        }
    }
}

/// A field whose change counts as a modification, for observations narrowed to some fields
/// (Realm's key-path filtering): other changes of a record are not reported as modifications.
///
/// ```swift
/// store.observe(query, modificationsOf: [ObservedField(\.text), ObservedField(\.favoriteCount)])
/// ```
public struct ObservedField<R>: Sendable {
    let differs: @Sendable (R, R) -> Bool

    /// A field given by key path; compared with `==`.
    ///
    /// ```swift
    /// ObservedField(\Tweet.text)
    /// ```
    public init<V: Equatable & SendableMetatype>(_ keyPath: any KeyPath<R, V> & Sendable) {
        differs = { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
    }
}
