/// A secondary index of a collection: one or more components computed from each record.
///
/// Index entries are written in the same transaction as their record, so an index never disagrees
/// with the records. Each component has an order; a non-unique index breaks ties by primary key.
/// Queries can match the leading components by equality and the next one by range, and sort by
/// the index without a full scan.
///
/// A type usually declares each index with ``on(_:unique:order:_:)``, which gives a ``TypedIndex``
/// (the handle queries take, checked by the compiler) whose ``TypedIndex/index`` `indexes` lists.
/// An `Index` built with its initializer is queried by name, checked when the query runs.
///
/// ```swift
/// static let byCreated = Index<Tweet>.on("created", order: .descending) { $0.created }   // newest first
/// static let byAuthor = Index<Tweet>.on("author") { $0.username }.then(order: .descending) { $0.created }
/// static let byHandle = Index<Tweet>.on("handle", unique: true) { $0.handle }
/// static let indexes = [byCreated.index, byAuthor.index, byHandle.index]
/// ```
public struct Index<R: Record>: Sendable {
    /// The index's name, unique within its collection.
    ///
    /// ```swift
    /// print(index.name) // "created"
    /// ```
    public let name: String
    /// Whether two records may share the index's value. A duplicate fails the transaction.
    ///
    /// ```swift
    /// print(index.isUnique)
    /// ```
    public let isUnique: Bool
    /// The components' orders, first to last.
    ///
    /// ```swift
    /// print(index.orders) // [.ascending, .descending]
    /// ```
    public private(set) var orders: [SortOrder]
    /// The components' types, first to last: what a query's values for them must be.
    ///
    /// ```swift
    /// print(index.componentTypes) // [Swift.String, Foundation.Date]
    /// ```
    public private(set) var componentTypes: [any KeyComponent.Type]
    @usableFromInline var components: [@Sendable (R, inout KeyEncoder) -> Void]

    /// An index on one value computed from the record.
    ///
    /// ```swift
    /// Index<Tweet>("created", order: .descending) { $0.created }
    /// ```
    public init<V: KeyComponent>(_ name: String, unique: Bool = false, order: SortOrder = .ascending,
                                 _ value: @escaping @Sendable (R) -> V) {
        self.name = name
        self.isUnique = unique
        self.orders = [order]
        self.componentTypes = [V.self]
        self.components = [{ record, encoder in encoder.append(value(record), descending: order == .descending) }]
    }

    /// Adds a further component, used to break ties of the previous ones.
    ///
    /// ```swift
    /// Index<Tweet>("author") { $0.username }.then(order: .descending) { $0.created }
    /// ```
    public func then<V: KeyComponent>(order: SortOrder = .ascending, _ value: @escaping @Sendable (R) -> V) -> Index {
        var copy = self
        copy.orders.append(order)
        copy.componentTypes.append(V.self)
        copy.components.append { record, encoder in encoder.append(value(record), descending: order == .descending) }
        return copy
    }

    /// The index's value for `record`, without the primary key.
    /// Appends the index value of `record` to `encoder`.
    @inlinable
    func appendValue(of record: R, to encoder: inout KeyEncoder) {
        for component in components { component(record, &encoder) }
    }

    /// Appends the LMDB key of `record`'s entry: the index value, then, for a non-unique index,
    /// the primary key (so duplicates sort by primary key). The entry's LMDB value is the primary
    /// key.
    @inlinable
    func appendEntryKey(of record: R, primaryKey: [UInt8], to encoder: inout KeyEncoder) {
        appendValue(of: record, to: &encoder)
        if !isUnique { encoder.appendBytes(primaryKey) }
    }

    /// The LMDB key of `record`'s entry (``appendEntryKey(of:primaryKey:to:)``).
    @inlinable
    func entryKey(of record: R, primaryKey: [UInt8]) -> [UInt8] {
        var encoder = KeyEncoder()
        appendEntryKey(of: record, primaryKey: primaryKey, to: &encoder)
        return encoder.bytes
    }

    @inlinable
    func value(of record: R) -> [UInt8] {
        var encoder = KeyEncoder()
        appendValue(of: record, to: &encoder)
        return encoder.bytes
    }

    /// Encodes query values for the leading components of this index, each checked against its
    /// component's type (a value of another type would encode to bytes no entry has, and find
    /// nothing).
    func encode(values: [any KeyComponent]) throws -> [UInt8] {
        guard values.count <= orders.count else {
            throw queryError("index '\(name)' has \(orders.count) component(s), but the query gives \(values.count) value(s)")
        }
        var encoder = KeyEncoder()
        for (position, value) in values.enumerated() {
            try check(value, component: position)
            encoder.appendExistential(value, descending: orders[position] == .descending)
        }
        return encoder.bytes
    }

    /// Checks that `value` is of the type of the component at `position` (from 0).
    func check(_ value: any KeyComponent, component position: Int) throws {
        let expected = componentTypes[position]
        guard type(of: value) != expected else { return }
        throw queryError("index '\(name)' takes \(expected) for its component \(position + 1) of \(orders.count), "
                         + "but the query gives \(type(of: value)) (\(String(reflecting: value)))")
    }

    /// Checks that a string prefix may apply to the component at `position` (from 0): a `String` one.
    func checkPrefix(component position: Int) throws {
        let expected = componentTypes[position]
        guard expected != String.self else { return }
        throw queryError("index '\(name)' takes \(expected) for its component \(position + 1) of \(orders.count); "
                         + "a prefix applies only to a String component")
    }

    /// A human-readable value of this index: its components decoded from `bytes` (an entry key,
    /// which may go on with the primary key), as a query would give them.
    func describeValue(_ bytes: [UInt8]) -> String {
        var decoder = KeyDecoder(bytes)
        var parts: [String] = []
        for (type, order) in zip(componentTypes, orders) {
            guard let value = try? decoder.decodeExistential(type, descending: order == .descending) else {
                return bytes.map { encodingHexByte($0) }.joined()
            }
            parts.append(String(reflecting: value))
        }
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")"
    }

    private func queryError(_ message: String) -> StoreError {
        StoreError(.invalidArgument, operation: "query", database: "\(R.collectionName)#\(name)", message: message)
    }
}

extension KeyEncoder {
    /// Appends an existential key component (opened to its concrete type).
    mutating func appendExistential(_ value: any KeyComponent, descending: Bool) {
        appendOpened(value, descending: descending)
    }

    private mutating func appendOpened<T: KeyComponent>(_ value: T, descending: Bool) {
        append(value, descending: descending)
    }
}

extension KeyDecoder {
    /// Decodes the next component as a value of `type`, known only at run time.
    mutating func decodeExistential(_ type: any KeyComponent.Type, descending: Bool) throws -> any KeyComponent {
        try decodeOpened(type, descending: descending)
    }

    private mutating func decodeOpened<T: KeyComponent>(_ type: T.Type, descending: Bool) throws -> any KeyComponent {
        try decode(type, descending: descending)
    }
}
