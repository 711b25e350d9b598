/// Statistics of one named database (`mdb_stat`).
///
/// ```swift
/// let stats = try env.read { tx in try tx.stats(of: tweets) }
/// print(stats.entries, stats.depth)
/// ```
@usableFromInline struct DatabaseStats: Sendable, Hashable, Codable {
    /// The page size in bytes.
    ///
    /// ```swift
    /// print(stats.pageSize)
    /// ```
    @usableFromInline var pageSize: Int
    /// The depth of the B-tree.
    ///
    /// ```swift
    /// print(stats.depth)
    /// ```
    @usableFromInline var depth: Int
    /// The number of internal (non-leaf) pages.
    ///
    /// ```swift
    /// print(stats.branchPages)
    /// ```
    @usableFromInline var branchPages: Int
    /// The number of leaf pages.
    ///
    /// ```swift
    /// print(stats.leafPages)
    /// ```
    @usableFromInline var leafPages: Int
    /// The number of overflow pages (values larger than about half a page).
    ///
    /// ```swift
    /// print(stats.overflowPages)
    /// ```
    @usableFromInline var overflowPages: Int
    /// The number of entries.
    ///
    /// ```swift
    /// print(stats.entries)
    /// ```
    @usableFromInline var entries: Int
    /// The bytes of the pages the database occupies.
    ///
    /// ```swift
    /// print(stats.bytes)
    /// ```
    @usableFromInline var bytes: Int { (branchPages + leafPages + overflowPages) * pageSize }
}
