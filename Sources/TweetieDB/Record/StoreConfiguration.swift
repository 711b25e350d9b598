/// How a ``Store`` is opened. Every property documents its default.
///
/// ```swift
/// var configuration = StoreConfiguration()
/// configuration.durability = .noMetaSync
/// configuration.changeLogRetention = 50_000
/// ```
@dynamicMemberLookup
public struct StoreConfiguration: Sendable, Hashable {
    /// The LMDB environment's configuration (map size, durability, readers…). Default: ``Configuration/init()``.
    ///
    /// ```swift
    /// configuration.environment.durability = .noSync
    /// ```
    public var environment = Configuration()

    /// The environment's settings, read and written directly on the store configuration:
    /// `configuration.durability`, `.mapSize`, `.maximumMapSize`, `.maxReaders`, `.readOnly`,
    /// `.createDatabase`… (each documented on ``Configuration``).
    ///
    /// ```swift
    /// configuration.durability = .noMetaSync
    /// configuration.mapSize = 1 << 20
    /// ```
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Configuration, Value>) -> Value {
        get { environment[keyPath: keyPath] }
        set { environment[keyPath: keyPath] = newValue }
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
