/// One point of the file-growth time series of a stress run.
struct GrowthSample: Codable, Sendable {
    /// Seconds since the writers started.
    var seconds: Double
    /// The size of data.mdb in bytes.
    var fileSize: Int
    /// Pages up to the last one in use (`me_last_pgno + 1`).
    var usedPages: Int
    /// Pages in LMDB's free list.
    var freePages: Int
    /// Free pages that the oldest open read transaction keeps writers from reusing (freed by its
    /// snapshot's transaction or later); 0 when no read transaction is open.
    var pinnedPages: Int
    /// LMDB's last committed transaction id.
    var lastTransaction: Int
    /// Commits since the oldest open read transaction's snapshot, at the moment of the sample.
    var readerLag: Int
    /// The largest such lag seen by the reader-table polls since the previous sample.
    var maxReaderLag: Int
}
