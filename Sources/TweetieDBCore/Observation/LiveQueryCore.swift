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
@usableFromInline
final class LiveQueryCore<R: Record, Key: Comparable & Sendable> {
    enum Delta {
        case unchanged
        /// The log no longer covers every change (retention, or a bulk change logged without keys):
        /// the complete results must be read again (``initialRows(assemble:)``) and delivered as a fresh
        /// initial element.
        case reset
        case changes([RowChange<Key, R>], contentChanged: Set<[UInt8]>)
    }

    /// What one read transaction of ``delta(oldValue:)`` copied out.
    private enum Snapshot {
        case unchanged
        case reset
        /// Each touched key, whether its bytes were rewritten, and its stored bytes (nil: absent).
        case touched([(primaryKey: [UInt8], rewritten: Bool, bytes: [UInt8]?)])
    }

    @usableFromInline let store: Store
    @usableFromInline let descriptor: CollectionDescriptor
    @usableFromInline let plan: QueryPlan<R>
    /// The walk of ``plan``, for the inlinable ``initialRows(assemble:)``.
    @usableFromInline let scan: ScanPlan
    @usableFromInline let keyOf: @Sendable (R, EncodedKey) -> Key
    let isModified: ((R, R) -> Bool)?
    private let decoder = RecordDecoder()
    /// Each matching record's results key, by primary key (see ``PrimaryKeyBytes`` for why not `[UInt8]`).
    @usableFromInline var keys: [PrimaryKeyBytes: Key] = [:]
    /// The history position of the results last read.
    @usableFromInline var lastPosition = ChangeLogPosition.origin
    var lastSequence: UInt64 { lastPosition.sequence }

    init(store: Store, query: Query<R>, fields: [ObservedField<R>]?, keyOf: @escaping @Sendable (R, EncodedKey) -> Key) throws {
        self.store = store
        descriptor = try store.descriptor(for: R.self)
        // The core tracks every matching record; offset and limit are applied when delivering.
        plan = try QueryPlan(query.offset(0).limit(nil), descriptor: descriptor)
        scan = ScanPlan(plan)
        self.keyOf = keyOf
        if let fields {
            isModified = { old, new in fields.contains { $0.differs(old, new) } }
        } else {
            isModified = nil
        }
    }

    private func decode(_ bytes: [UInt8], primaryKey: [UInt8]) throws -> R {
        do {
            return try bytes.withUnsafeBytes { try decoder.decode(R.self, from: $0) }
        } catch {
            throw descriptor.decodingFailed(error, key: primaryKey, typeName: "\(R.self)", path: store.path)
        }
    }

    /// What changed since the last call, as row changes for the results structure.
    func delta(oldValue: (Key) -> R?) throws -> Delta {
        let snapshot = try store.read { reader -> Snapshot in
            let slice = try reader.changeLog(after: lastSequence)
            lastPosition = slice.lastPosition
            if slice.isTruncated || slice.entries.contains(where: { $0.unlistedCollections.contains(descriptor.name) }) {
                return .reset
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
        case .reset:
            return .reset
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
                        newKey = keyOf(record, plan.sortKey(of: record, primaryKey: primaryKey))
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

extension LiveQueryCore {
    /// What one read of a window that holds only its rows found (``readWindow(limit:force:)``).
    struct WindowRead {
        /// The first `limit` matching records in the walk's order, with their keys.
        var rows: [(primaryKey: [UInt8], key: Key, value: R)]
        /// Whether more matching records follow them.
        var hasMore: Bool
        /// Each key of the collection the change log named since the last read, with whether its
        /// record was rewritten; `nil` when the log no longer covers them all (a fresh start).
        var touched: [PrimaryKeyBytes: Bool]?
    }

    /// Reads, in one read transaction, the change-log entries after the last one applied and the
    /// first `limit` matching records of the walk: for a window that holds its rows only, whose
    /// sections follow the query's order, so that its rows are the walk's first ones. Returns
    /// `nil` (having read the log only) when the log names no record of the collection and
    /// `force` is false.
    ///
    /// `fresh` is for a caller that holds no rows (a start): it needs no difference, so only the
    /// log's last position is read, not its entries, which for a new observation are the whole
    /// log (a store that imported 100,000 records took 150 ms to start a window of 100 rows).
    ///
    /// Like ``initialRows(assemble:)``, the transaction only copies (``CopiedRecords``, a few more
    /// walked entries than the window needs); decoding and matching happen after it. When too few
    /// of them match, the whole read is made again, with four times as many: every read is one
    /// consistent snapshot.
    ///
    /// - Precondition: the walk is in the query's order (``ScanPlan/walkIsSorted``).
    func readWindow(limit: Int, force: Bool, fresh: Bool) throws -> WindowRead? {
        precondition(scan.walkIsSorted, "a window that holds its rows only needs a walk in the query's order")
        let plan = self.plan, scan = self.scan, descriptor = self.descriptor, path = store.path
        var copyCount = limit + 1 + limit / 4 + 8
        while true {
            var touched: [PrimaryKeyBytes: Bool]? = [:]
            let (position, copied) = try store.read { reader -> (ChangeLogPosition, CopiedRecords?) in
                let lastPosition: ChangeLogPosition
                if fresh {
                    touched = nil
                    lastPosition = try reader.changeLogPosition()
                } else {
                    let slice = try reader.changeLog(after: lastSequence)
                    lastPosition = slice.lastPosition
                    if slice.isTruncated || slice.entries.contains(where: { $0.unlistedCollections.contains(descriptor.name) }) {
                        touched = nil
                    } else {
                        var named: [PrimaryKeyBytes: Bool] = [:]
                        for entry in slice.entries {
                            for (bytes, kind) in entry.changes[descriptor.name] ?? [] {
                                let key = PrimaryKeyBytes(bytes)
                                named[key] = (named[key] ?? false) || kind != .deleted
                            }
                        }
                        touched = named
                        if named.isEmpty && !force { return (lastPosition, nil) }
                    }
                }
                return (lastPosition, try CopiedRecords.walk(scan, in: reader.transaction, descriptor: descriptor, path: path, limit: copyCount))
            }
            guard let copied else {
                lastPosition = position
                return nil
            }
            // The transaction has ended: decode and match.
            let sharing = SharedStringTable()
            var rows: [(primaryKey: [UInt8], key: Key, value: R)] = []
            decoding: for chunk in 0..<copied.chunkCount {
                for index in copied.records(inChunk: chunk) {
                    guard rows.count <= limit else { break decoding }
                    let value: R
                    do {
                        value = try R._decodeStored(copied.bytes(of: index, inChunk: chunk), sharing: sharing)
                    } catch {
                        throw descriptor.decodingFailed(error, key: copied.primaryKeys[index].bytes, typeName: "\(R.self)", path: path)
                    }
                    guard plan.query.predicates.allSatisfy({ $0(value) }) else { continue }
                    rows.append((copied.primaryKeys[index].bytes, keyOf(value, copied.walkedKeys[index]), value))
                }
            }
            if rows.count <= limit && !copied.exhausted {
                copyCount *= 4
                continue
            }
            for index in rows.indices.dropFirst() where !(rows[index - 1].key < rows[index].key) {
                throw StoreError(.invalidArgument, operation: "observe", database: descriptor.name, path: path,
                                 message: "the observation's sections do not follow its query's order (a record of a later section comes first in the query's order), so its window cannot hold only its rows; observe it without sectionsFollowQueryOrder")
            }
            lastPosition = position
            let hasMore = rows.count > limit
            if hasMore { rows.removeLast() }
            return WindowRead(rows: rows, hasMore: hasMore, touched: touched)
        }
    }
}
