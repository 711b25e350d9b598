
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

    /// The collections touched, in first-touch order. A transaction touches few collections, so
    /// a linear search by name beats hashing the name once per record.
    @usableFromInline var collections: [String] = []
    /// The operations of `collections[i]`, in the order they happened.
    @usableFromInline var lists: [OperationList] = []

    /// Creates an empty set of changes.
    ///
    /// ```swift
    /// var changes = TransactionChanges()
    /// ```
    public init() {}

    @usableFromInline
    mutating func recordInsert(_ collection: String, _ key: [UInt8]) {
        append(collection, key, kind: 0)
    }

    /// ``recordInsert(_:_:)`` for a key in place (a batch's encoded chunk).
    @inlinable
    mutating func recordInsert(_ collection: String, raw key: UnsafeRawBufferPointer) {
        let index = list(of: collection)
        lists[index].append(raw: key, kind: 0)
    }

    @usableFromInline
    mutating func recordModify(_ collection: String, _ key: [UInt8]) {
        append(collection, key, kind: 1)
    }

    @usableFromInline
    mutating func recordDelete(_ collection: String, _ key: [UInt8]) {
        append(collection, key, kind: 2)
    }

    @inlinable @inline(__always)
    mutating func append(_ collection: String, _ key: [UInt8], kind: UInt8) {
        let index = list(of: collection)
        lists[index].append(key, kind: kind)
    }

    /// The position of `collection`'s operations in ``lists``, an empty list added at the end
    /// for a collection not touched before.
    @inlinable @inline(__always)
    mutating func list(of collection: String) -> Int {
        if let index = collections.firstIndex(of: collection) { return index }
        collections.append(collection)
        lists.append(OperationList())
        return lists.count - 1
    }

    /// Folds the operations of one collection into each key's net change, keys ascending: a
    /// stable sort by key, then each key's operations in transaction order. The result's kinds
    /// are ``ChangeKind`` raw values.
    static func resolve(_ operations: OperationList) -> OperationList {
        // Bulk writes in key order (each key once, ascending) are already resolved: operation
        // kinds 0, 1, 2 are the raw values of inserted, modified, deleted.
        var ascending = true
        for position in 1..<max(1, operations.count) where operations.compareKeys(position - 1, position) >= 0 {
            ascending = false
            break
        }
        if ascending {
            return operations
        }
        let order = (0..<operations.count).sorted { a, b in
            let c = operations.compareKeys(a, b)
            return c != 0 ? c < 0 : a < b
        }
        var result = OperationList()
        result.reserve(keys: operations.count, bytes: operations.bytes.count)
        var position = 0
        while position < order.count {
            let first = order[position]
            var entry: Entry?
            while position < order.count, operations.compareKeys(order[position], first) == 0 {
                let kind = operations.kinds[order[position]]
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
            if let kind = entry?.kind { result.append(operations, key: first, kind: kind.rawValue) }
        }
        return result
    }

    /// Every collection with a net change and its resolved changes (keys ascending, kinds
    /// ``ChangeKind`` raw values), in first-touch order: what the change log stores.
    func resolvedLists() -> [(collection: String, changes: OperationList)] {
        var result: [(collection: String, changes: OperationList)] = []
        for (collection, operations) in zip(collections, lists) {
            let list = Self.resolve(operations)
            if list.count > 0 { result.append((collection, list)) }
        }
        return result
    }

    /// Every collection's net changes, keys in ascending byte order.
    func netChanges() -> [String: [(key: [UInt8], kind: ChangeKind)]] {
        var result: [String: [(key: [UInt8], kind: ChangeKind)]] = [:]
        for (collection, list) in resolvedLists() { result[collection] = list.pairs() }
        return result
    }

    /// The net change of each touched key of `collection` (keys with no net change are omitted),
    /// in ascending key order.
    ///
    /// ```swift
    /// for (key, kind) in changes.changes(in: "tweets") { … }
    /// ```
    public func changes(in collection: String) -> [(key: [UInt8], kind: ChangeKind)] {
        collections.firstIndex(of: collection).map { Self.resolve(lists[$0]).pairs() } ?? []
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
