/// An index with the types of its components: what a ``Query`` takes to filter or sort by the
/// index, checked by the compiler.
///
/// A record type declares one per index as a static property and lists its ``index`` in
/// ``Record/indexes``; `@Indexed var updated: Date` declares `byUpdated` itself. A query's values
/// must then be of the components' types: `filter(Note.byAuthor, equals: 7)` does not compile,
/// and a literal takes the component's type (`equals: 7` on an `Int32` component is `Int32(7)`).
///
/// ```swift
/// struct Note: Record, Identifiable {
///     static let collectionName = "notes"
///     static let byUpdated = Index<Note>.on("updated", order: .descending, \.updated)
///     static let byAuthor = Index<Note>.on("author", \.author).then(order: .descending, \.updated)
///     static let indexes = [byUpdated.index, byAuthor.index]
///     var id: Int64
///     var author: String
///     var updated: Date
/// }
///
/// let annsNewest = Query<Note>().filter(Note.byAuthor, equals: "ann").sorted(by: Note.byAuthor)
/// ```
public struct TypedIndex<R: Record, each Component: KeyComponent>: Sendable {
    /// The index's definition: what ``Record/indexes`` lists.
    ///
    /// ```swift
    /// static let indexes = [byUpdated.index, byAuthor.index]
    /// ```
    public let index: Index<R>

    /// The index's name, unique within its collection (what a query by name gives).
    ///
    /// ```swift
    /// print(Note.byAuthor.name) // "author"
    /// ```
    public var name: String { index.name }

    init(_ index: Index<R>) {
        self.index = index
    }

    /// Adds a further component, used to break ties of the previous ones.
    ///
    /// ```swift
    /// Index<Note>.on("author", \.author).then(order: .descending, \.updated)   // TypedIndex<Note, String, Date>
    /// ```
    public func then<V: KeyComponent>(order: SortOrder = .ascending,
                                      _ value: @escaping @Sendable (R) -> V) -> TypedIndex<R, repeat each Component, V> {
        TypedIndex<R, repeat each Component, V>(index.then(order: order, value))
    }
}

extension Index {
    /// An index on one value computed from the record (a key path or a closure), with its type.
    ///
    /// ```swift
    /// static let byUpdated = Index<Note>.on("updated", order: .descending, \.updated)
    /// static let byHandle = Index<Account>.on("handle", unique: true) { $0.handle.lowercased() }
    /// ```
    public static func on<V: KeyComponent>(_ name: String, unique: Bool = false, order: SortOrder = .ascending,
                                           _ value: @escaping @Sendable (R) -> V) -> TypedIndex<R, V> {
        TypedIndex(Index(name, unique: unique, order: order, value))
    }
}
