// SectionedQueryResults, with the two small value types only it uses: a row's key
// (SectionedRowKey) and the order of sections (OrderedSection).

/// The key of a row in sectioned results: its section, then its position within the query's sort.
///
/// Inlinable throughout, like the rest of an observation's start (``LiveQueryCore/initialRows(assemble:)``).
@usableFromInline
struct SectionedRowKey<S: Hashable & Comparable & Sendable>: Comparable, Hashable, Sendable {
    @usableFromInline var section: S
    @usableFromInline var sectionsDescending: Bool
    @usableFromInline var row: EncodedKey

    @inlinable
    init(section: S, sectionsDescending: Bool, row: EncodedKey) {
        self.section = section
        self.sectionsDescending = sectionsDescending
        self.row = row
    }

    /// The row's section in the order of sections: what sectioned results of these keys group by.
    @inlinable
    var orderedSection: OrderedSection<S> { OrderedSection(key: section, descending: sectionsDescending) }

    @inlinable
    static func < (lhs: SectionedRowKey, rhs: SectionedRowKey) -> Bool {
        if lhs.section != rhs.section {
            return lhs.sectionsDescending ? lhs.section > rhs.section : lhs.section < rhs.section
        }
        return lhs.row < rhs.row
    }

    @inlinable
    static func == (lhs: SectionedRowKey, rhs: SectionedRowKey) -> Bool {
        lhs.section == rhs.section && lhs.sectionsDescending == rhs.sectionsDescending && lhs.row == rhs.row
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(section)
        hasher.combine(sectionsDescending)
        hasher.combine(row)
    }
}

/// A section key ordered by its key, ascending or descending.
@usableFromInline
struct OrderedSection<S: Hashable & Comparable & Sendable>: Comparable, Hashable, Sendable {
    @usableFromInline var key: S
    @usableFromInline var descending: Bool

    @inlinable
    init(key: S, descending: Bool) {
        self.key = key
        self.descending = descending
    }

    @inlinable
    static func < (lhs: OrderedSection, rhs: OrderedSection) -> Bool {
        lhs.descending ? lhs.key > rhs.key : lhs.key < rhs.key
    }

    @inlinable
    static func == (lhs: OrderedSection, rhs: OrderedSection) -> Bool {
        lhs.key == rhs.key && lhs.descending == rhs.descending
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(descending)
    }
}

/// The results of a sectioned observation: sections ordered by their key, rows ordered by the
/// query's sort inside each section.
///
/// ```swift
/// for try await change in store.observe(query, sectionedBy: { Day($0.created) }, sectionOrder: .descending) {
///     for section in 0..<change.results.numberOfSections {
///         print(change.results.sectionKey(at: section), change.results.numberOfRows(inSection: section))
///     }
/// }
/// ```
public struct SectionedQueryResults<S: Hashable & Comparable & Sendable, R: Record>: Sendable {
    let base: SectionedResults<OrderedSection<S>, SectionedRowKey<S>, R>

    /// The number of sections.
    public var numberOfSections: Int { base.numberOfSections }

    /// The number of rows of section `section`.
    public func numberOfRows(inSection section: Int) -> Int { base.numberOfRows(inSection: section) }

    /// The key of section `section`.
    public func sectionKey(at section: Int) -> S { base.sectionKey(at: section).key }

    /// The record at `path`.
    ///
    /// ```swift
    /// let tweet = results[RowPath(section: 0, row: 0)]
    /// ```
    public subscript(path: RowPath) -> R { base[path].value }

    /// The records of section `section`, in order.
    ///
    /// ```swift
    /// for tweet in results.rows(inSection: 0) { print(tweet.text) }
    /// ```
    public func rows(inSection section: Int) -> [R] { base.rows(inSection: section).map(\.value) }

    /// The records of rows `rows` of section `section`, in order, O(log n + rows.count): what a
    /// table shows of a long section, without reading the rest.
    ///
    /// - Precondition: `rows` lies within the section.
    ///
    /// ```swift
    /// for tweet in results.rows(inSection: 0, 0..<20) { print(tweet.text) }
    /// ```
    public func rows(inSection section: Int, _ rows: Range<Int>) -> [R] {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= numberOfRows(inSection: section),
                     "SectionedQueryResults: rows \(rows) are out of section \(section)'s 0..<\(numberOfRows(inSection: section))")
        let start = base.flatStart(ofSectionKey: base.sectionKey(at: section))
        return base.rows.elements(in: (start + rows.lowerBound)..<(start + rows.upperBound)).map(\.value)
    }

    /// Every section with its rows, as arrays.
    ///
    /// ```swift
    /// for (day, tweets) in results.sections { print(day, tweets.count) }
    /// ```
    public var sections: [(key: S, rows: [R])] {
        let arrays = base.sectionArrays()
        return arrays.enumerated().map { (sectionKey(at: $0.offset), $0.element.map(\.value)) }
    }

    /// The total number of rows.
    public var rowCount: Int { base.rows.count }
}
