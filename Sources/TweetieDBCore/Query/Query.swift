/// A query on one collection: a filter, a sort, an offset and a limit.
///
/// Filters on the primary key or on an index are served by that key or index (never a full scan);
/// a predicate closure filters further in memory. Sorting by the primary key or by an index reads
/// in that order; ties are broken by primary key.
///
/// An index is named by the record type's ``TypedIndex`` (`Tweet.byAuthor`), and its values must
/// be of its components' types: the compiler checks both. Naming an index by a string
/// (``filter(index:equals:)``, ``sorted(byIndex:_:)``) is for a name known only at run time, such
/// as user input; the values are then checked when the query runs.
///
/// ```swift
/// let page = Query<Tweet>()
///     .filter(Tweet.byAuthor, equals: "icanzilb")
///     .sorted(by: Tweet.byAuthor)
///     .limit(50)
/// let tweets = try store.read { try $0.fetch(page) }
/// ```
public struct Query<R: Record>: Sendable {
    enum Source: Sendable {
        case all
        case primaryKey(KeyBounds)
        case index(name: String, equals: [any KeyComponent], bounds: KeyBounds?)
    }

    /// Bounds on one key component (encoded with the component's order when the query runs).
    struct KeyBounds: Sendable {
        var lower: (any KeyComponent)?
        var lowerInclusive = true
        var upper: (any KeyComponent)?
        var upperInclusive = true
        var stringPrefix: String?
    }

    enum Sort: Sendable, Equatable {
        case primaryKey(SortOrder)
        case index(String, SortOrder)
    }

    var source: Source = .all
    @usableFromInline var predicates: [@Sendable (R) -> Bool] = []
    var sort: Sort = .primaryKey(.ascending)
    /// The number of matching records skipped.
    public private(set) var offset = 0
    /// The most records returned, or `nil` for all.
    public private(set) var limitCount: Int?

    /// A query for every record of the collection, in primary-key order.
    ///
    /// ```swift
    /// let all = try store.read { try $0.fetch(Query<Tweet>()) }
    /// ```
    public init() {}

    // MARK: Filters

    /// Only the record with this primary key.
    ///
    /// ```swift
    /// Query<Tweet>().filter(primaryKey: 1071396963340435457)
    /// ```
    public func filter(primaryKey key: R.PrimaryKey) -> Query {
        var copy = self
        copy.source = .primaryKey(KeyBounds(lower: key, upper: key))
        return copy
    }

    /// Records whose primary key lies in `range`.
    ///
    /// ```swift
    /// Query<Tweet>().filter(primaryKeyIn: 100...200)
    /// ```
    public func filter(primaryKeyIn range: ClosedRange<R.PrimaryKey>) -> Query where R.PrimaryKey: Comparable {
        var copy = self
        copy.source = .primaryKey(KeyBounds(lower: range.lowerBound, upper: range.upperBound))
        return copy
    }

    /// Records whose primary key lies in the half-open `range`.
    ///
    /// ```swift
    /// Query<Tweet>().filter(primaryKeyIn: 100..<200)
    /// ```
    public func filter(primaryKeyIn range: Range<R.PrimaryKey>) -> Query where R.PrimaryKey: Comparable {
        var copy = self
        copy.source = .primaryKey(KeyBounds(lower: range.lowerBound, upper: range.upperBound, upperInclusive: false))
        return copy
    }

    /// Records whose `String` primary key starts with `prefix`.
    ///
    /// ```swift
    /// Query<User>().filter(primaryKeyPrefix: "ash")
    /// ```
    public func filter(primaryKeyPrefix prefix: String) -> Query where R.PrimaryKey == String {
        var copy = self
        copy.source = .primaryKey(KeyBounds(stringPrefix: prefix))
        return copy
    }

    /// Records whose index, named at run time, has the leading components `values` (all of them, or
    /// none for every record); prefer ``filter(_:equals:)`` with the type's ``TypedIndex``.
    ///
    /// Each value must be of its component's type, as the index declares it (`Int32(7)`, not `7`,
    /// for an `Int32` component): a value of another type would find nothing, so the query throws
    /// ``StoreError`` (`.invalidArgument`) naming the index, the expected and the given type when
    /// it runs. The same holds for the bounds and prefixes below.
    ///
    /// ```swift
    /// Query<Tweet>().filter(index: "author", equals: "icanzilb")
    /// ```
    public func filter(index name: String, equals values: any KeyComponent...) -> Query {
        filtered(index: name, equals: values, bounds: nil)
    }

    /// Records whose index, named at run time, has the leading components `values` and the next
    /// component between the bounds: `from` is the smaller value whatever the index's order, `to`
    /// is inclusive unless `upperInclusive` is false, `nil` is open.
    ///
    /// ```swift
    /// Query<Tweet>().filter(index: "created", from: monday, to: sunday)
    /// Query<Tweet>().filter(index: "author", equals: "icanzilb", from: monday, to: nil)
    /// ```
    public func filter(index name: String, equals values: any KeyComponent..., from lower: (any KeyComponent)?,
                       to upper: (any KeyComponent)?, upperInclusive: Bool = true) -> Query {
        filtered(index: name, equals: values, bounds: KeyBounds(lower: lower, upper: upper, upperInclusive: upperInclusive))
    }

    /// Records whose index, named at run time, has the leading components `values` and a next
    /// component, a `String`, that starts with `prefix`; on a component of another type the query
    /// throws when it runs.
    ///
    /// ```swift
    /// Query<Tweet>().filter(index: "author", prefix: "ic")
    /// ```
    public func filter(index name: String, equals values: any KeyComponent..., prefix: String) -> Query {
        filtered(index: name, equals: values, bounds: KeyBounds(stringPrefix: prefix))
    }

    /// The query served by the index `name`, where every index filter, typed or by name, ends up.
    func filtered(index name: String, equals values: [any KeyComponent], bounds: KeyBounds?) -> Query {
        var copy = self
        copy.source = .index(name: name, equals: values, bounds: bounds)
        return copy
    }

    /// Records for which `predicate` is true (evaluated in memory, after the key or index filter).
    ///
    /// ```swift
    /// Query<Tweet>().filter { $0.text.localizedCaseInsensitiveContains("swift") }
    /// ```
    public func filter(_ predicate: @escaping @Sendable (R) -> Bool) -> Query {
        var copy = self
        copy.predicates.append(predicate)
        return copy
    }

    // MARK: Sort, offset, limit

    /// Sorts by primary key.
    ///
    /// ```swift
    /// Query<Tweet>().sorted(byPrimaryKey: .descending)
    /// ```
    public func sorted(byPrimaryKey order: SortOrder = .ascending) -> Query {
        var copy = self
        copy.sort = .primaryKey(order)
        return copy
    }

    /// Sorts by an index named at run time, in the index's order (`.ascending`) or reversed
    /// (`.descending`); ties by primary key. Prefer ``sorted(by:_:)`` with the type's ``TypedIndex``.
    ///
    /// ```swift
    /// Query<Tweet>().sorted(byIndex: "created")   // the index is newest-first
    /// ```
    public func sorted(byIndex name: String, _ order: SortOrder = .ascending) -> Query {
        var copy = self
        copy.sort = .index(name, order)
        return copy
    }

    /// Skips the first `count` matching records.
    ///
    /// ```swift
    /// Query<Tweet>().sorted(by: Tweet.byCreated).offset(50).limit(50)   // page 2
    /// ```
    public func offset(_ count: Int) -> Query {
        var copy = self
        copy.offset = max(0, count)
        return copy
    }

    /// Returns at most `count` records.
    ///
    /// ```swift
    /// Query<Tweet>().limit(50)
    /// ```
    public func limit(_ count: Int?) -> Query {
        var copy = self
        copy.limitCount = count.map { max(0, $0) }
        return copy
    }

    /// Whether the query has an offset or a limit.
    var isWindowed: Bool { offset > 0 || limitCount != nil }
}
