/// Sorted query results grouped into sections, kept in memory as persistent trees.
///
/// The rows live in one flat ``RankedTree`` sorted by `Key`; `sectionKeyOf(key)` names a row's
/// section and must be monotone (`a < b` implies `sectionKeyOf(a) <= sectionKeyOf(b)`), e.g. a
/// key `(day, date, id)` with the day as section key, so each section is a contiguous run.
/// A second tree maps each section key to its row count, giving the section index in
/// O(log S); where a section starts in the flat order is found by a binary search over the flat
/// tree's separators (``RankedTree/partitionIndex(where:)``), O(log n). No operation here is
/// O(n) except building from scratch and ``sectionArrays()``; copying is O(1).
///
/// ```swift
/// struct Key: Comparable, Hashable, Sendable {
///     var day: Int, id: Int
///     static func < (a: Key, b: Key) -> Bool { (a.day, a.id) < (b.day, b.id) }
/// }
/// let rows = RankedTree(sortedUniqueElements: [(key: Key(day: 1, id: 1), value: "a"), (key: Key(day: 2, id: 5), value: "b")])
/// let results = SectionedResults(rows: rows) { $0.day }
/// print(results.numberOfSections, results[RowPath(section: 1, row: 0)].value) // 2 b
/// ```
@usableFromInline
package struct SectionedResults<SectionKey: Hashable & Comparable, Key: Comparable, Value> {
    /// All rows in flat order (sections are contiguous runs).
    @usableFromInline package private(set) var rows: RankedTree<Key, Value>
    /// Section key → number of rows, for the non-empty sections.
    @usableFromInline package private(set) var sections: RankedTree<SectionKey, Int>
    /// Extracts a row's section key from its key (monotone in key order).
    ///
    /// ```swift
    /// print(results.sectionKeyOf(results.rows[0].key))
    /// ```
    @usableFromInline package let sectionKeyOf: @Sendable (Key) -> SectionKey

    /// Groups `rows` into sections, O(n).
    ///
    /// - Precondition: `sectionKeyOf` is monotone over `rows` (checked).
    ///
    /// ```swift
    /// let results = SectionedResults(rows: RankedTree<Int, String>()) { $0 / 10 }
    /// print(results.numberOfSections) // 0
    /// ```
    @usableFromInline package init(rows: RankedTree<Key, Value>, sectionKeyOf: @escaping @Sendable (Key) -> SectionKey) {
        self.init(rows: rows, sections: Self.sections(of: rows.lazy.map(\.key), sectionKeyOf: sectionKeyOf), sectionKeyOf: sectionKeyOf)
    }

    /// Builds results from parallel arrays whose keys are strictly ascending (checked by the
    /// caller) with `sectionKeyOf` monotone over them (checked), O(n), moving the rows out of
    /// the arrays. Inlinable, like
    /// ``RankedTree``'s `init(ascendingKeys:values:)`, for an observation's start.
    @inlinable
    init(ascendingKeys keys: inout [Key], values: inout [Value], sectionKeyOf: @escaping @Sendable (Key) -> SectionKey) {
        let sections = Self.sections(of: keys, sectionKeyOf: sectionKeyOf)
        self.init(rows: RankedTree(ascendingKeys: &keys, values: &values), sections: sections, sectionKeyOf: sectionKeyOf)
    }

    /// Each section's key and row count, for row keys in ascending order.
    ///
    /// - Precondition: `sectionKeyOf` is monotone over `keys` (checked).
    @inlinable
    static func sections<Keys: Sequence<Key>>(of keys: Keys, sectionKeyOf: (Key) -> SectionKey) -> RankedTree<SectionKey, Int> {
        var sectionKeys: [SectionKey] = []
        var counts: [Int] = []
        for key in keys {
            let section = sectionKeyOf(key)
            if let last = sectionKeys.last, last == section {
                counts[counts.count - 1] += 1
            } else {
                precondition(
                    sectionKeys.last.map { $0 < section } ?? true,
                    "SectionedResults: section key \(section) of row \(key) comes after section \(sectionKeys.last!); sectionKeyOf must be monotone in key order"
                )
                sectionKeys.append(section)
                counts.append(1)
            }
        }
        return RankedTree(ascendingKeys: &sectionKeys, values: &counts)
    }

    /// Assembles results from trees that are already consistent.
    @usableFromInline
    init(rows: RankedTree<Key, Value>, sections: RankedTree<SectionKey, Int>, sectionKeyOf: @escaping @Sendable (Key) -> SectionKey) {
        self.rows = rows
        self.sections = sections
        self.sectionKeyOf = sectionKeyOf
    }

    /// The number of (non-empty) sections, O(1).
    @usableFromInline package var numberOfSections: Int { sections.count }

    /// The number of rows in section `section`, O(log S).
    @usableFromInline package func numberOfRows(inSection section: Int) -> Int {
        sections[section].value
    }

    /// The key of section `section`, O(log S).
    @usableFromInline package func sectionKey(at section: Int) -> SectionKey {
        sections[section].key
    }

    /// The flat index of the first row of the section with key `sectionKey` (or where it would
    /// start), O(log n).
    ///
    /// ```swift
    /// print(results.flatStart(ofSectionKey: results.sectionKey(at: 1)))
    /// ```
    @usableFromInline package func flatStart(ofSectionKey sectionKey: SectionKey) -> Int {
        rows.partitionIndex { sectionKeyOf($0) >= sectionKey }
    }

    /// The flat index of `path`, O(log n).
    ///
    /// ```swift
    /// print(results.flatIndex(for: RowPath(section: 1, row: 0)))
    /// ```
    @usableFromInline package func flatIndex(for path: RowPath) -> Int {
        precondition(
            path.section >= 0 && path.section < numberOfSections
                && path.row >= 0 && path.row < numberOfRows(inSection: path.section),
            "SectionedResults: row path \(path) is out of bounds"
        )
        return flatStart(ofSectionKey: sectionKey(at: path.section)) + path.row
    }

    /// The row path of the row at flat index `flatIndex`, O(log n).
    ///
    /// ```swift
    /// print(results.rowPath(forFlatIndex: 0)) // [0, 0]
    /// ```
    @usableFromInline package func rowPath(forFlatIndex flatIndex: Int) -> RowPath {
        let sectionKey = sectionKeyOf(rows[flatIndex].key)
        guard let section = sections.index(of: sectionKey) else {
            preconditionFailure("SectionedResults: section \(sectionKey) of flat row \(flatIndex) is missing from the section index")
        }
        return RowPath(section: section, row: flatIndex - flatStart(ofSectionKey: sectionKey))
    }

    /// The row path of the row with `key`, or `nil`, O(log n).
    ///
    /// ```swift
    /// print(results.rowPath(of: results.rows[0].key)!) // [0, 0]
    /// ```
    @usableFromInline package func rowPath(of key: Key) -> RowPath? {
        rows.index(of: key).map(rowPath(forFlatIndex:))
    }

    /// The row at `path`, O(log n).
    @usableFromInline package subscript(path: RowPath) -> (key: Key, value: Value) {
        rows[flatIndex(for: path)]
    }

    /// The rows of section `section`, iterated in O(log n + rows).
    ///
    /// ```swift
    /// for (key, value) in results.rows(inSection: 0) { print(key, value) }
    /// ```
    @usableFromInline package func rows(inSection section: Int) -> RankedTree<Key, Value>.ElementSequence {
        let start = flatStart(ofSectionKey: sectionKey(at: section))
        return rows.elements(in: start..<(start + numberOfRows(inSection: section)))
    }

    /// All rows as nested arrays, one per section, O(n) (initial rendering and tests).
    @usableFromInline package func sectionArrays() -> [[(key: Key, value: Value)]] {
        var result: [[(key: Key, value: Value)]] = []
        result.reserveCapacity(numberOfSections)
        var iterator = rows.makeIterator()
        for (_, rowCount) in sections {
            var section: [(key: Key, value: Value)] = []
            section.reserveCapacity(rowCount)
            for _ in 0..<rowCount {
                guard let element = iterator.next() else { preconditionFailure("SectionedResults: section counts exceed the rows") }
                section.append(element)
            }
            result.append(section)
        }
        return result
    }
}

extension SectionedResults: Sendable where SectionKey: Sendable, Key: Sendable, Value: Sendable {}
