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

extension Configuration {
    /// The settings that differ from `other`'s, for an error: `durability: noSync (open: full)`.
    func differences(from other: Configuration) -> String {
        let mine = Mirror(reflecting: self).children, theirs = Mirror(reflecting: other).children
        let differing = zip(mine, theirs).compactMap { mine, theirs -> String? in
            guard let label = mine.label, "\(mine.value)" != "\(theirs.value)" else { return nil }
            return "\(label): \(mine.value) asked, \(theirs.value) open"
        }
        return differing.isEmpty ? "no setting differs" : differing.joined(separator: ", ")
    }
}
