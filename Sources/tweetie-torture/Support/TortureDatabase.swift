import ArgumentParser
import TweetieDB
import TweetieSync

/// How the torture processes open a database.
enum TortureDatabase {
    /// The store configuration: a small initial map (growth happens early and often).
    static func configuration(durability: StoreConfiguration.Durability = .full, mapSize: Int = 1 << 20, readOnly: Bool = false) -> StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.durability = durability
        configuration.mapSize = mapSize
        configuration.readOnly = readOnly
        return configuration
    }

    static func open(_ path: String, durability: StoreConfiguration.Durability = .full, mapSize: Int = 1 << 20, readOnly: Bool = false) throws -> Store {
        try TweetieDatabase.open(at: path, configuration: configuration(durability: durability, mapSize: mapSize, readOnly: readOnly))
    }

    /// Every tweet as (id → checksum), in one snapshot, with the last change-log sequence.
    static func contents(of store: Store) throws -> (records: [Int64: UInt64], lastSequence: UInt64) {
        try store.read { tx in
            var records: [Int64: UInt64] = [:]
            try tx.forEach(Query<Tweet>()) { tweet in
                records[tweet.id] = Digest.checksum(tweet)
                return true
            }
            return (records, try tx.lastChangeSequence())
        }
    }

    /// The observers' query: every tweet, newest first.
    static let observedQuery = Query<Tweet>().sorted(by: Tweet.byCreated)

    /// The digest of a fresh read of ``observedQuery`` and the sequence it reflects.
    static func freshDigest(of store: Store) throws -> (sequence: UInt64, count: Int, digest: UInt64) {
        try store.read { tx in
            let rows = try tx.fetch(observedQuery).map { (id: $0.id, checksum: Digest.checksum($0)) }
            return (try tx.lastChangeSequence(), rows.count, Digest.ofRows(rows))
        }
    }
}
