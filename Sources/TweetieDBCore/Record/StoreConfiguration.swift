/// How a ``Store`` is opened. Every property documents its default.
///
/// ```swift
/// var configuration = StoreConfiguration()
/// configuration.durability = .noMetaSync
/// configuration.changeLogRetention = 50_000
/// ```
public struct StoreConfiguration: Sendable, Hashable {
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
    /// A write that would need more fails with ``StoreError/Code-swift.enum/mapFull``.
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
    /// fails with ``StoreError/Code-swift.enum/readersFull``. LMDB's own default, 126, is small
    /// for a feed server where each follower or export is a process: 130 slow readers locked
    /// every writer out. The cost is 64 bytes of `lock.mdb` per slot (64 KiB for 1024, mapped
    /// by every process) and a longer scan when a reader starts or a process checks for dead
    /// readers; nothing else grows with it.
    ///
    /// The lock file holds the number: the first process to open the database (no other has it
    /// open) grows `lock.mdb` to this many slots; later processes, and smaller numbers, use what it
    /// holds (``StoreInfo/maxReaders`` tells the real number). Slots of processes that died
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

    /// The LMDB settings above, as the environment takes them.
    var environment: Configuration {
        Configuration(mapSize: mapSize, maximumMapSize: maximumMapSize, maxDatabases: maxDatabases, maxReaders: maxReaders, durability: durability, fileMode: fileMode, readOnly: readOnly, createDirectory: createDirectory, createDatabase: createDatabase)
    }

    /// How many committed transactions the change log keeps, at least. Default: 10,000.
    ///
    /// An observer (in this or another process) that falls further behind receives a fresh initial
    /// element instead of a changeset. The oldest entries are pruned in batches of 1/64 of the
    /// bound (156 for the default), so up to `changeLogRetention + 155` entries are held: pruning
    /// one entry per commit would rewrite the log's oldest pages in every transaction.
    ///
    /// ```swift
    /// configuration.changeLogRetention = 100_000
    /// ```
    public var changeLogRetention: Int = 10_000

    /// The most record changes one log entry lists; a transaction that changes more (a bulk import)
    /// is logged as "collection changed" and its observers re-read. Default: 100,000.
    ///
    /// ```swift
    /// configuration.maxListedChangesPerCommit = 10_000
    /// ```
    public var maxListedChangesPerCommit: Int = 100_000

    /// Which paths wake observers for other processes' commits (internal: tests force one path).
    var crossProcessWakeUp = CommitNotifier.Paths()

    /// Creates a configuration with every property at its documented default.
    ///
    /// ```swift
    /// let configuration = StoreConfiguration()
    /// ```
    public init() {}
}
