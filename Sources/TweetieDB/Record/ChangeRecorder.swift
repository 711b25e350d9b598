/// What a write transaction did to one record, comparing its state before and after the transaction.
///
/// ```swift
/// if change.kind == .deleted { … }
/// ```
public enum ChangeKind: UInt8, Sendable, Hashable, Codable {
    /// The record did not exist before the transaction and exists after it.
    case inserted = 0
    /// The record existed before and after, and its stored bytes were rewritten.
    case modified = 1
    /// The record existed before the transaction and does not after it.
    case deleted = 2
}

/// The exact record-level effect of one write transaction: per collection, which primary keys
/// were inserted, modified and deleted.
///
/// Several operations on one key within a transaction collapse to the net effect (insert then
/// delete is nothing; delete then insert is a modification). Operations are appended as they
/// happen (cheap for bulk writes) and resolved once, when the net effect is asked for.
///
/// ```swift
/// let changes = try store.write { tx in try tx.add(tweet); return tx.changes }
/// print(changes.keys(of: "tweets", kind: .inserted).count)
/// ```
public struct TransactionChanges: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var existedBefore: Bool
        var existsNow: Bool
        var rewritten: Bool
    }

    /// What one operation did to a key: 0 insert, 1 modify, 2 delete.
    @usableFromInline
    struct Operation: Sendable {
        @usableFromInline var key: [UInt8]
        @usableFromInline var kind: UInt8
        @inlinable init(key: [UInt8], kind: UInt8) {
            self.key = key
            self.kind = kind
        }
    }

    /// The collections touched, in first-touch order. A transaction touches few collections, so
    /// a linear search by name beats hashing the name once per record.
    @usableFromInline var collections: [String] = []
    /// The operations of `collections[i]`, in the order they happened.
    @usableFromInline var lists: [[Operation]] = []

    /// Creates an empty set of changes.
    ///
    /// ```swift
    /// var changes = TransactionChanges()
    /// ```
    public init() {}

    @usableFromInline
    mutating func recordInsert(_ collection: String, _ key: [UInt8]) {
        append(collection, Operation(key: key, kind: 0))
    }

    @usableFromInline
    mutating func recordModify(_ collection: String, _ key: [UInt8]) {
        append(collection, Operation(key: key, kind: 1))
    }

    @usableFromInline
    mutating func recordDelete(_ collection: String, _ key: [UInt8]) {
        append(collection, Operation(key: key, kind: 2))
    }

    @inlinable @inline(__always)
    mutating func append(_ collection: String, _ operation: Operation) {
        if let index = collections.firstIndex(of: collection) {
            lists[index].append(operation)
        } else {
            collections.append(collection)
            lists.append([operation])
        }
    }

    /// Folds the operations of one collection into each key's net change: a stable sort by key,
    /// then each key's operations in transaction order.
    private static func resolve(_ operations: [Operation]) -> [(key: [UInt8], kind: ChangeKind)] {
        // Bulk writes in key order (each key once, ascending) are already resolved.
        var ascending = true
        for position in operations.indices.dropFirst() where EncodedKey.compare(operations[position - 1].key, operations[position].key) >= 0 {
            ascending = false
            break
        }
        if ascending {
            return operations.map { ($0.key, ChangeKind(rawValue: $0.kind)!) }
        }
        let order = operations.indices.sorted { a, b in
            let c = EncodedKey.compare(operations[a].key, operations[b].key)
            return c != 0 ? c < 0 : a < b
        }
        var result: [(key: [UInt8], kind: ChangeKind)] = []
        result.reserveCapacity(operations.count)
        var position = 0
        while position < order.count {
            let key = operations[order[position]].key
            var entry: Entry?
            while position < order.count, operations[order[position]].key == key {
                let kind = operations[order[position]].kind
                if entry == nil {
                    entry = Entry(existedBefore: kind != 0, existsNow: kind != 2, rewritten: kind == 1)
                } else {
                    switch kind {
                    case 0:
                        if entry!.existedBefore { entry!.rewritten = true }
                        entry!.existsNow = true
                    case 1:
                        entry!.rewritten = true
                    default:
                        entry!.existsNow = false
                    }
                }
                position += 1
            }
            if let kind = entry?.kind { result.append((key, kind)) }
        }
        return result
    }

    /// Every collection's net changes, keys in ascending byte order.
    func netChanges() -> [String: [(key: [UInt8], kind: ChangeKind)]] {
        var result: [String: [(key: [UInt8], kind: ChangeKind)]] = [:]
        for (collection, operations) in zip(collections, lists) {
            let list = Self.resolve(operations)
            if !list.isEmpty { result[collection] = list }
        }
        return result
    }

    /// The net change of each touched key of `collection` (keys with no net change are omitted),
    /// in ascending key order.
    ///
    /// ```swift
    /// for (key, kind) in changes.changes(in: "tweets") { … }
    /// ```
    public func changes(in collection: String) -> [(key: [UInt8], kind: ChangeKind)] {
        collections.firstIndex(of: collection).map { Self.resolve(lists[$0]) } ?? []
    }

    /// The primary keys (encoded) of `collection` with the given net change.
    ///
    /// ```swift
    /// let inserted = changes.keys(of: "tweets", kind: .inserted)
    /// ```
    public func keys(of collection: String, kind: ChangeKind) -> Set<[UInt8]> {
        Set(changes(in: collection).filter { $0.kind == kind }.map(\.key))
    }

    /// The names of the collections with at least one net change.
    ///
    /// ```swift
    /// print(changes.collectionNames)
    /// ```
    public var collectionNames: [String] { netChanges().keys.sorted() }

    /// The number of keys with a net change, over all collections.
    ///
    /// ```swift
    /// print(changes.count)
    /// ```
    public var count: Int { netChanges().values.reduce(0) { $0 + $1.count } }

    /// Whether the transaction changed no record.
    ///
    /// ```swift
    /// if changes.isEmpty { print("nothing to notify") }
    /// ```
    public var isEmpty: Bool { count == 0 }

    /// Two values are equal when their net changes are.
    ///
    /// ```swift
    /// assert(a == b)
    /// ```
    public static func == (lhs: TransactionChanges, rhs: TransactionChanges) -> Bool {
        lhs.comparable == rhs.comparable
    }

    /// Hashes the net changes.
    ///
    /// ```swift
    /// var hasher = Hasher(); changes.hash(into: &hasher)
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(comparable) }

    private var comparable: [String: [[UInt8]: UInt8]] {
        netChanges().mapValues { Dictionary($0.map { ($0.key, $0.kind.rawValue) }, uniquingKeysWith: { _, last in last }) }
    }
}

extension TransactionChanges.Entry {
    var kind: ChangeKind? {
        switch (existedBefore, existsNow) {
        case (false, true): .inserted
        case (true, false): .deleted
        case (true, true): rewritten ? .modified : nil
        case (false, false): nil
        }
    }
}
