/// How a ``Query`` runs: which LMDB database to walk, over which key range, in which direction,
/// and whether the results still need an in-memory sort.
@usableFromInline
struct QueryPlan<R: Record>: Sendable {
    /// The database walked: the records, or an index whose values are primary keys.
    let database: Database
    let range: KeyRange
    let viaIndex: Bool
    /// Whether the walk returns records already in the query's sort order (then offset and limit
    /// stop the walk early); otherwise results are sorted in memory by ``sortKey``.
    let walkIsSorted: Bool
    let reverse: Bool
    @usableFromInline let query: Query<R>
    let descriptor: CollectionDescriptor
    /// For index sources: the position of the index in `R.indexes`.
    let sourceIndex: Int?
    let sortIndex: Int?

    init(_ query: Query<R>, descriptor: CollectionDescriptor) throws {
        self.query = query
        self.descriptor = descriptor
        switch query.sort {
        case .primaryKey: sortIndex = nil
        case .index(let name, _): sortIndex = try descriptor.indexDatabase(named: name).0
        }
        switch query.source {
        case .all:
            // Walk the sort index when sorting by one: the order comes for free.
            if let sortIndex {
                database = descriptor.indexDatabases[sortIndex]
                viaIndex = true
                sourceIndex = sortIndex
            } else {
                database = descriptor.records
                viaIndex = false
                sourceIndex = nil
            }
            range = .all
        case .primaryKey(let bounds):
            database = descriptor.records
            viaIndex = false
            sourceIndex = nil
            range = try QueryPlan.range(prefix: [], bounds: bounds, descending: false, collection: descriptor.name)
        case .index(let name, let equals, let bounds):
            let (position, db) = try descriptor.indexDatabase(named: name)
            let index = R.indexes[position]
            database = db
            viaIndex = true
            sourceIndex = position
            let prefix = try index.encode(values: equals)
            if let bounds {
                guard equals.count < index.orders.count else {
                    throw StoreError(.invalidArgument, operation: "query", database: "\(R.collectionName)#\(name)",
                                        message: "index '\(name)' has \(index.orders.count) component(s): all are given as equal values, so no component is left for a range")
                }
                // The bounds are checked as the equal values are (``Index/encode(values:)``).
                if bounds.stringPrefix != nil { try index.checkPrefix(component: equals.count) }
                for bound in [bounds.lower, bounds.upper] { if let bound { try index.check(bound, component: equals.count) } }
                range = try QueryPlan.range(prefix: prefix, bounds: bounds, descending: index.orders[equals.count] == .descending, collection: descriptor.name)
            } else {
                range = prefix.isEmpty ? .all : .prefix(prefix)
            }
        }
        switch query.sort {
        case .primaryKey(let order):
            walkIsSorted = !viaIndex
            reverse = order == .descending && walkIsSorted
        case .index(_, let order):
            walkIsSorted = viaIndex && sourceIndex == sortIndex
            reverse = order == .descending && walkIsSorted
        }
    }

    /// The byte range of keys `prefix ‖ component` with the component within `bounds`.
    static func range(prefix: [UInt8], bounds: Query<R>.KeyBounds, descending: Bool, collection: String) throws -> KeyRange {
        if let stringPrefix = bounds.stringPrefix {
            var bytes = prefix
            for byte in stringPrefix.utf8 {
                bytes.append(descending ? ~byte : byte)
                if byte == 0 { bytes.append(descending ? 0x00 : 0xFF) }
            }
            return .prefix(bytes)
        }
        func encode(_ value: any KeyComponent) -> [UInt8] {
            var encoder = KeyEncoder()
            encoder.appendExistential(value, descending: descending)
            return prefix + encoder.bytes
        }
        // In a descending component, byte order is the reverse of value order: swap the bounds.
        var lowValue = bounds.lower, lowInclusive = bounds.lowerInclusive
        var highValue = bounds.upper, highInclusive = bounds.upperInclusive
        if descending {
            swap(&lowValue, &highValue)
            swap(&lowInclusive, &highInclusive)
        }
        var lower: [UInt8]? = prefix.isEmpty ? nil : prefix
        var upper: [UInt8]? = prefix.isEmpty ? nil : KeyRange.successor(ofPrefix: prefix)
        if let lowValue {
            // Component encodings are prefix-free: every key with this component starts with its bytes.
            lower = lowInclusive ? encode(lowValue) : KeyRange.successor(ofPrefix: encode(lowValue))
        }
        if let highValue {
            upper = highInclusive ? KeyRange.successor(ofPrefix: encode(highValue)) : encode(highValue)
        }
        return KeyRange(lowerBound: lower, upperBoundExclusive: upper)
    }

    /// The key that orders `record` under the query's sort: the sort index's entry key (which ends
    /// with the primary key) or the primary key, with every byte inverted for a descending sort
    /// (the encodings are prefix-free, so inversion exactly reverses memcmp order).
    @usableFromInline
    func sortKey(of record: R, primaryKey: [UInt8]) -> EncodedKey {
        var bytes: [UInt8]
        let order: SortOrder
        switch query.sort {
        case .primaryKey(let o):
            bytes = primaryKey
            order = o
        case .index(_, let o):
            bytes = R.indexes[sortIndex!].value(of: record) + primaryKey
            order = o
        }
        if order == .descending {
            for i in bytes.indices { bytes[i] = ~bytes[i] }
        }
        return EncodedKey(bytes: bytes)
    }

    /// Whether `record` matches the query's filter (ignoring offset and limit), without the database.
    func matches(_ record: R, primaryKey: [UInt8]) -> Bool {
        let key: [UInt8]
        if let sourceIndex, viaIndex {
            key = R.indexes[sourceIndex].entryKey(of: record, primaryKey: primaryKey)
        } else {
            key = primaryKey
        }
        let inRange = key.withUnsafeBytes { range.contains($0) }
        return inRange && query.predicates.allSatisfy { $0(record) }
    }
}
