extension StoreConfiguration {
    /// What a committed write transaction survives. The user chooses; TweetieDB never picks for them.
    ///
    /// | Level | On commit | Survives a process crash | Survives an OS crash / power loss |
    /// |---|---|---|---|
    /// | `full` | data and meta page flushed (`fsync`) | yes | yes |
    /// | `noMetaSync` | data flushed, meta page not (`MDB_NOMETASYNC`) | yes | the last commit(s) may be lost, never corrupted |
    /// | `noSync` | nothing flushed (`MDB_NOSYNC`) | yes | recent commits may be lost; an unlucky file system may corrupt |
    ///
    /// A commit is always atomic and always survives the writer process being killed: LMDB's pages
    /// live in the OS page cache. Call ``Store/sync(force:)`` to flush on demand.
    ///
    /// ```swift
    /// configuration.durability = .noMetaSync
    /// ```
    public enum Durability: String, Sendable, Hashable, CaseIterable, Codable {
        /// Flush data and metadata on every commit. Slowest, survives power loss.
        case full
        /// Flush data on every commit but not the meta page: the last transaction may roll back on an
        /// OS crash; the database stays consistent.
        case noMetaSync
        /// Flush nothing on commit: fastest; an OS crash can lose recent commits.
        case noSync
    }
}
