/// How an ``Environment`` is opened: the LMDB settings of a ``StoreConfiguration``, which
/// documents each of them with its default (`StoreConfiguration.environment` makes this value).
struct Configuration: Sendable, Hashable {
    var mapSize: Int
    var maximumMapSize: Int
    var maxDatabases: Int
    var maxReaders: Int
    var durability: StoreConfiguration.Durability
    var fileMode: UInt32
    var readOnly: Bool
    var createDirectory: Bool
    var createDatabase: Bool
}

extension Configuration {
    /// The defaults of ``StoreConfiguration``.
    init() { self = StoreConfiguration().environment }
}
