/// The entry builders of a record type's indexes, taken out of its ``Index`` values once, for
/// a loop that builds the entries of many records.
///
/// Using `indexes[position]` inside such a loop copies the `Index` each time (its name, its
/// orders and its components: three reference counts up and down per index and record); this
/// keeps only the components, flat, and where each index's end.
///
/// ```swift
/// // Internal: a batch's encoder builds it once per chunk.
/// let entries = IndexEntryComponents(Tweet.indexes)
/// entries.appendEntryKey(0, of: tweet, primaryKey: key, to: &encoder)
/// ```
@usableFromInline
struct IndexEntryComponents<R: Record> {
    /// Every index's components, index after index.
    @usableFromInline let components: [@Sendable (R, inout KeyEncoder) -> Void]
    /// Per index, one past its last component in ``components``.
    @usableFromInline let ends: [Int]
    /// Per index, whether its entry key ends with the primary key (a non-unique index).
    @usableFromInline let appendsPrimaryKey: [Bool]

    @inlinable
    init(_ indexes: [Index<R>]) {
        var components: [@Sendable (R, inout KeyEncoder) -> Void] = []
        var ends: [Int] = []
        var appendsPrimaryKey: [Bool] = []
        for index in indexes {
            components.append(contentsOf: index.components)
            ends.append(components.count)
            appendsPrimaryKey.append(!index.isUnique)
        }
        self.components = components
        self.ends = ends
        self.appendsPrimaryKey = appendsPrimaryKey
    }

    /// The number of indexes.
    @inlinable var count: Int { ends.count }

    /// Appends the entry key of `record` in index `index`, as ``Index/appendEntryKey(of:primaryKey:to:)`` does.
    @inlinable
    func appendEntryKey(_ index: Int, of record: borrowing R, primaryKey: [UInt8], to encoder: inout KeyEncoder) {
        for component in (index == 0 ? 0 : ends[index - 1])..<ends[index] {
            components[component](record, &encoder)
        }
        if appendsPrimaryKey[index] { encoder.appendBytes(primaryKey) }
    }
}
