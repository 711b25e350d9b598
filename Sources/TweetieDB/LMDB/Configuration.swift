/// How an ``Environment`` is opened: sizes, limits, durability and file permissions.
///
/// Every property documents its default. The map size is only a starting point: TweetieDB grows
/// the map on demand (doubling, up to ``maximumMapSize``), so a small default costs nothing.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.durability = .noMetaSync
/// configuration.mapSize = 256 << 20
/// let env = try Environment.open(at: "/var/lib/tweetie", configuration: configuration)
/// ```
public struct Configuration: Sendable, Hashable {
    /// The initial size of the memory map, in bytes. Default: 64 MiB.
    ///
    /// The map grows automatically when a write needs more room (see ``maximumMapSize``); when the
    /// file on disk is already larger (another process grew it), the file's size is adopted.
    ///
    /// ```swift
    /// configuration.mapSize = 1 << 20   // start at 1 MiB
    /// ```
    public var mapSize: Int = 64 << 20

    /// The largest size the map may grow to, in bytes. Default: 1 TiB.
    ///
    /// A write that would need more fails with ``DatabaseError/Code-swift.enum/mapFull``.
    ///
    /// ```swift
    /// configuration.maximumMapSize = 8 << 30
    /// ```
    public var maximumMapSize: Int = 1 << 40

    /// The number of named databases (LMDB DBIs) the environment can hold. Default: 64.
    ///
    /// The object store uses one per collection, one per secondary index and a few for metadata.
    ///
    /// ```swift
    /// configuration.maxDatabases = 128
    /// ```
    public var maxDatabases: Int = 64

    /// The number of reader slots: concurrent read transactions across all processes. Default: 1024.
    ///
    /// Every live read transaction of every process holds one slot; when all are taken, beginning
    /// a read — and so every command, writers included, since opening and writing read too —
    /// fails with ``DatabaseError/Code-swift.enum/readersFull``. LMDB's own default, 126, is small
    /// for a feed server where each follower or export is a process: 130 slow readers locked
    /// every writer out. The cost is 64 bytes of `lock.mdb` per slot (64 KiB for 1024, mapped
    /// by every process) and a longer scan when a reader starts or a process checks for dead
    /// readers; nothing else grows with it.
    ///
    /// The lock file holds the number: the first process to open the database (no other has it
    /// open) grows `lock.mdb` to this many slots; later processes, and smaller numbers, use what it
    /// holds (``EnvironmentInfo/maxReaders`` tells the real number). Slots of processes that died
    /// are reclaimed (`mdb_reader_check`) on open and when the slots run out.
    ///
    /// ```swift
    /// configuration.maxReaders = 4096
    /// ```
    public var maxReaders: Int = 1024

    /// What a commit guarantees after a crash. Default: ``Durability/full``.
    ///
    /// ```swift
    /// configuration.durability = .noSync
    /// ```
    public var durability: Durability = .full

    /// The permissions of newly created files. Default: `0o600` (owner read and write only).
    ///
    /// ```swift
    /// configuration.fileMode = 0o640
    /// ```
    public var fileMode: UInt32 = 0o600

    /// Opens the environment read-only: writes fail and no file is created. Default: `false`.
    ///
    /// ```swift
    /// configuration.readOnly = true
    /// ```
    public var readOnly: Bool = false

    /// Creates the directory when it does not exist. Default: `true` (ignored when read-only).
    ///
    /// ```swift
    /// configuration.createDirectory = false   // fail if the directory is missing
    /// ```
    public var createDirectory: Bool = true

    /// Creates `data.mdb` when the directory has none, or only an empty or incomplete one (an
    /// interrupted creation, which is discarded). Default: `true` (ignored when read-only).
    ///
    /// When `false`, opening refuses such a directory and creates nothing: what a command that
    /// only reads needs, even when it opens the database for writing.
    ///
    /// ```swift
    /// configuration.createDatabase = false   // open an existing database or fail
    /// ```
    public var createDatabase: Bool = true

    /// Creates a configuration with every property at its documented default.
    ///
    /// ```swift
    /// let configuration = Configuration()
    /// ```
    public init() {}
}

/// What a committed write transaction survives. The user chooses; TweetieDB never picks for them.
///
/// | Level | On commit | Survives a process crash | Survives an OS crash / power loss |
/// |---|---|---|---|
/// | `full` | data and meta page flushed (`fsync`) | yes | yes |
/// | `noMetaSync` | data flushed, meta page not (`MDB_NOMETASYNC`) | yes | the last commit(s) may be lost, never corrupted |
/// | `noSync` | nothing flushed (`MDB_NOSYNC`) | yes | recent commits may be lost; an unlucky file system may corrupt |
///
/// A commit is always atomic and always survives the writer process being killed: LMDB's pages
/// live in the OS page cache. Call ``Environment/sync(force:)`` to flush on demand.
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
