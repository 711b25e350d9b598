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
/// delete is nothing; delete then insert is a modification).
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

    private(set) var collections: [String: [[UInt8]: Entry]] = [:]

    /// Creates an empty set of changes.
    ///
    /// ```swift
    /// var changes = TransactionChanges()
    /// ```
    public init() {}

    @usableFromInline
    mutating func recordInsert(_ collection: String, _ key: [UInt8]) {
        update(collection, key, first: Entry(existedBefore: false, existsNow: true, rewritten: false)) { entry in
            if entry.existedBefore { entry.rewritten = true }
            entry.existsNow = true
        }
    }

    @usableFromInline
    mutating func recordModify(_ collection: String, _ key: [UInt8]) {
        update(collection, key, first: Entry(existedBefore: true, existsNow: true, rewritten: true)) { entry in
            entry.rewritten = true
        }
    }

    @usableFromInline
    mutating func recordDelete(_ collection: String, _ key: [UInt8]) {
        update(collection, key, first: Entry(existedBefore: true, existsNow: false, rewritten: false)) { entry in
            entry.existsNow = false
        }
    }

    private mutating func update(_ collection: String, _ key: [UInt8], first: Entry, _ change: (inout Entry) -> Void) {
        // One hash of the collection name and one of the key, both updated in place.
        collections[collection, default: [:]].update(key, first: first, change)
    }

    /// The net change of each touched key of `collection` (keys with no net change are omitted).
    ///
    /// ```swift
    /// for (key, kind) in changes.changes(in: "tweets") { … }
    /// ```
    public func changes(in collection: String) -> [(key: [UInt8], kind: ChangeKind)] {
        guard let entries = collections[collection] else { return [] }
        return entries.compactMap { key, entry in entry.kind.map { (key, $0) } }
    }

    /// The primary keys (encoded) of `collection` with the given net change.
    ///
    /// ```swift
    /// let inserted = changes.keys(of: "tweets", kind: .inserted)
    /// ```
    public func keys(of collection: String, kind: ChangeKind) -> Set<[UInt8]> {
        Set(changes(in: collection).filter { $0.kind == kind }.map(\.key))
    }

    /// Every collection's net changes, computed in one pass.
    func netChanges() -> [String: [(key: [UInt8], kind: ChangeKind)]] {
        var result: [String: [(key: [UInt8], kind: ChangeKind)]] = [:]
        for (collection, entries) in collections {
            var list: [(key: [UInt8], kind: ChangeKind)] = []
            list.reserveCapacity(entries.count)
            for (key, entry) in entries {
                if let kind = entry.kind { list.append((key, kind)) }
            }
            if !list.isEmpty { result[collection] = list }
        }
        return result
    }

    /// The names of the collections with at least one net change.
    ///
    /// ```swift
    /// print(changes.collectionNames)
    /// ```
    public var collectionNames: [String] {
        collections.keys.filter { !changes(in: $0).isEmpty }.sorted()
    }

    /// The number of keys with a net change, over all collections.
    ///
    /// ```swift
    /// print(changes.count)
    /// ```
    public var count: Int { collections.keys.reduce(0) { $0 + changes(in: $1).count } }

    /// Whether the transaction changed no record.
    ///
    /// ```swift
    /// if changes.isEmpty { print("nothing to notify") }
    /// ```
    public var isEmpty: Bool { count == 0 }
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

extension Dictionary where Key == [UInt8], Value == TransactionChanges.Entry {
    /// Applies `change` to the entry of `key` in place, or stores `first` when there is none.
    @inline(__always)
    mutating func update(_ key: [UInt8], first: Value, _ change: (inout Value) -> Void) {
        if let index = index(forKey: key) {
            change(&values[index])
        } else {
            self[key] = first
        }
    }
}
