/// Filters and sorts by a ``TypedIndex``: the index is named by the record type's handle and each
/// value has its component's type, so a query the index cannot serve does not compile.
///
/// The values are given as the index's components come, leading ones first: `equals:` fixes the
/// first one, two or three components; a range (`from:to:`) or a `prefix:` applies to the component
/// after them. An index of more components is filtered beyond its third by name
/// (``Query/filter(index:equals:)``).
///
/// ```swift
/// Query<Note>().filter(Note.byAuthor, equals: "ann").sorted(by: Note.byAuthor)
/// Query<Note>().filter(Note.byAuthor, equals: "ann", from: monday, to: nil)
/// Query<Note>().filter(Note.byUpdated, from: monday, to: sunday)
/// ```
extension Query {
    // MARK: Equal values

    /// Records whose index's first component equals `a`.
    ///
    /// ```swift
    /// Query<Note>().filter(Note.byAuthor, equals: "ann")
    /// ```
    public func filter<A: KeyComponent, each Rest: KeyComponent>(_ index: TypedIndex<R, A, repeat each Rest>,
                                                                 equals a: A) -> Query {
        filtered(index: index.name, equals: [a], bounds: nil)
    }

    /// Records whose index's first two components equal `a` and `b`.
    ///
    /// ```swift
    /// Query<Note>().filter(Note.byAuthor, equals: "ann", noon)
    /// ```
    public func filter<A: KeyComponent, B: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, B, repeat each Rest>, equals a: A, _ b: B) -> Query {
        filtered(index: index.name, equals: [a, b], bounds: nil)
    }

    /// Records whose index's first three components equal `a`, `b` and `c`.
    ///
    /// ```swift
    /// Query<Visit>().filter(Visit.byPlace, equals: "Sofia", "Vitosha", 12)
    /// ```
    public func filter<A: KeyComponent, B: KeyComponent, C: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, B, C, repeat each Rest>, equals a: A, _ b: B, _ c: C) -> Query {
        filtered(index: index.name, equals: [a, b, c], bounds: nil)
    }

    // MARK: Ranges

    /// Records whose index's first component lies between the bounds: `from` is the smaller value
    /// whatever the index's order, `to` is inclusive unless `upperInclusive` is false, `nil` is open.
    ///
    /// ```swift
    /// Query<Note>().filter(Note.byUpdated, from: monday, to: sunday)
    /// ```
    public func filter<A: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, repeat each Rest>, from lower: A?, to upper: A?, upperInclusive: Bool = true) -> Query {
        filtered(index: index.name, equals: [], bounds: KeyBounds(lower: lower, upper: upper, upperInclusive: upperInclusive))
    }

    /// Records whose index's first component equals `a` and whose second lies between the bounds
    /// (as in ``filter(_:from:to:upperInclusive:)``).
    ///
    /// ```swift
    /// Query<Note>().filter(Note.byAuthor, equals: "ann", from: monday, to: nil)
    /// ```
    public func filter<A: KeyComponent, B: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, B, repeat each Rest>, equals a: A, from lower: B?, to upper: B?,
        upperInclusive: Bool = true) -> Query {
        filtered(index: index.name, equals: [a], bounds: KeyBounds(lower: lower, upper: upper, upperInclusive: upperInclusive))
    }

    /// Records whose index's first two components equal `a` and `b` and whose third lies between
    /// the bounds (as in ``filter(_:from:to:upperInclusive:)``).
    ///
    /// ```swift
    /// Query<Visit>().filter(Visit.byPlace, equals: "Sofia", "Vitosha", from: 10, to: 20)
    /// ```
    public func filter<A: KeyComponent, B: KeyComponent, C: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, B, C, repeat each Rest>, equals a: A, _ b: B, from lower: C?, to upper: C?,
        upperInclusive: Bool = true) -> Query {
        filtered(index: index.name, equals: [a, b], bounds: KeyBounds(lower: lower, upper: upper, upperInclusive: upperInclusive))
    }

    // MARK: Prefixes

    /// Records whose index's first component, a `String`, starts with `prefix`.
    ///
    /// ```swift
    /// Query<Note>().filter(Note.byAuthor, prefix: "an")
    /// ```
    public func filter<each Rest: KeyComponent>(_ index: TypedIndex<R, String, repeat each Rest>, prefix: String) -> Query {
        filtered(index: index.name, equals: [], bounds: KeyBounds(stringPrefix: prefix))
    }

    /// Records whose index's first component equals `a` and whose second, a `String`, starts with
    /// `prefix`.
    ///
    /// ```swift
    /// Query<Visit>().filter(Visit.byPlace, equals: "Sofia", prefix: "Vit")
    /// ```
    public func filter<A: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, String, repeat each Rest>, equals a: A, prefix: String) -> Query {
        filtered(index: index.name, equals: [a], bounds: KeyBounds(stringPrefix: prefix))
    }

    /// Records whose index's first two components equal `a` and `b` and whose third, a `String`,
    /// starts with `prefix`.
    ///
    /// ```swift
    /// Query<Tag>().filter(Tag.byPath, equals: "docs", "guides", prefix: "get")
    /// ```
    public func filter<A: KeyComponent, B: KeyComponent, each Rest: KeyComponent>(
        _ index: TypedIndex<R, A, B, String, repeat each Rest>, equals a: A, _ b: B, prefix: String) -> Query {
        filtered(index: index.name, equals: [a, b], bounds: KeyBounds(stringPrefix: prefix))
    }

    // MARK: Sort

    /// Sorts by an index, in the index's order (`.ascending`) or reversed (`.descending`); ties by
    /// primary key.
    ///
    /// ```swift
    /// Query<Note>().sorted(by: Note.byUpdated)   // the index is newest-first
    /// ```
    public func sorted<each Component: KeyComponent>(by index: TypedIndex<R, repeat each Component>,
                                                     _ order: SortOrder = .ascending) -> Query {
        sorted(byIndex: index.name, order)
    }
}
