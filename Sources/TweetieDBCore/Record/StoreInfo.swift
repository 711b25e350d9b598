/// A snapshot of the store's size and activity: its map, pages, last transaction and readers.
///
/// ```swift
/// let info = store.info()
/// print("\(info.usedBytes) of \(info.mapSize) bytes used")
/// ```
public struct StoreInfo: Sendable, Hashable, Codable {
    /// The current size of the memory map in bytes.
    ///
    /// ```swift
    /// print(info.mapSize)
    /// ```
    public var mapSize: Int
    /// The database page size in bytes.
    ///
    /// ```swift
    /// print(info.pageSize) // 4096
    /// ```
    public var pageSize: Int
    /// The number of the last used page.
    ///
    /// ```swift
    /// print(info.lastPageNumber)
    /// ```
    public var lastPageNumber: Int
    /// The id of the last committed transaction.
    ///
    /// ```swift
    /// print(info.lastTransactionID)
    /// ```
    public var lastTransactionID: Int
    /// The number of reader slots.
    ///
    /// ```swift
    /// print(info.maxReaders)
    /// ```
    public var maxReaders: Int
    /// The number of reader slots held now, by all processes: live read transactions, plus stale
    /// slots of dead processes until they are cleared (on open, by ``Store/clearStaleReaders()``,
    /// or when the slots run out). Counted with `mdb_reader_list`, not LMDB's `me_numreaders`,
    /// which is a high-water mark that never goes down.
    ///
    /// ```swift
    /// print(info.readersInUse)
    /// ```
    public var readersInUse: Int
    /// The bytes of the map in use: `(lastPageNumber + 1) * pageSize`.
    ///
    /// ```swift
    /// print(info.usedBytes)
    /// ```
    public var usedBytes: Int { (lastPageNumber + 1) * pageSize }
}
