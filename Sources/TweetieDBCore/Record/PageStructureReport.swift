/// The result of a structural check of `data.mdb`'s pages (``Store/checkPageStructure()``):
/// what was walked in one snapshot, and every page that LMDB could not safely read.
///
/// LMDB trusts its page layout: a damaged B-tree page can crash the reading process. The check
/// reads the file with `pread`, never through the memory map, and validates everything LMDB would
/// dereference: page numbers, page kinds and tree depth, node offsets and sizes, key order,
/// overflow runs, the free list, and the counters of every database.
///
/// ```swift
/// let report = try store.checkPageStructure()
/// if !report.isSound { report.problems.forEach { print($0) } }
/// ```
public struct PageStructureReport: Sendable, Hashable, Codable {
    /// The page size of the environment in bytes.
    ///
    /// ```swift
    /// print(report.pageSize) // 4096
    /// ```
    public var pageSize = 0
    /// The id of the snapshot (transaction) that was checked.
    ///
    /// ```swift
    /// print(report.snapshot)
    /// ```
    public var snapshot = 0
    /// The last page of the snapshot (`mm_last_pg`): pages `0...lastPage` are in use or free.
    ///
    /// ```swift
    /// print(report.lastPage + 1, "pages")
    /// ```
    public var lastPage = 0
    /// The B-trees walked: the free list, the main database and each named database.
    ///
    /// ```swift
    /// print(report.databases)
    /// ```
    public var databases = 0
    /// The branch, leaf and overflow pages visited, over all trees.
    ///
    /// ```swift
    /// print(report.pagesChecked)
    /// ```
    public var pagesChecked = 0
    /// The pages the free list records as reusable.
    ///
    /// ```swift
    /// print(report.freePages)
    /// ```
    public var freePages = 0
    /// One sentence per damaged page or inconsistent database; empty when the structure is sound.
    ///
    /// ```swift
    /// report.problems.forEach { print($0) } // "page 123 (tweets#created, leaf): node 4 offset 9000 lies outside the page"
    /// ```
    public var problems: [String] = []

    /// Whether no problem was found: LMDB can read every page of the snapshot without crashing.
    ///
    /// ```swift
    /// if report.isSound { print("ok") }
    /// ```
    public var isSound: Bool { problems.isEmpty }

    /// Creates an empty report.
    ///
    /// ```swift
    /// var report = PageStructureReport()
    /// report.problems.append("page 7 (posts, leaf): …")
    /// ```
    public init() {}
}
