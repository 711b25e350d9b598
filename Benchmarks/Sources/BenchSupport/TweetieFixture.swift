import Foundation
import TweetieDB
import TweetieSync

/// A TweetieDB store of TweetieSync's `Tweet` in a fresh temporary directory, removed by ``close()``.
///
/// The map starts at 16 GiB (a sparse file: it costs nothing) so no measured write pays for
/// the store's automatic map growth, which re-runs the transaction body.
///
/// ```swift
/// let fixture = try TweetieFixture(durability: .noSync)
/// try fixture.fill(count: 10_000)
/// defer { fixture.close() }
/// ```
public final class TweetieFixture: @unchecked Sendable {
    /// The store.
    ///
    /// ```swift
    /// try fixture.store.read { try $0.count(Tweet.self) }
    /// ```
    public let store: Store
    /// The directory of the store.
    ///
    /// ```swift
    /// print(fixture.path)
    /// ```
    public let path: String
    /// The generator the fixture's records come from.
    ///
    /// ```swift
    /// let extra = fixture.generator.tweet(id: 1_000_000)
    /// ```
    public let generator: TweetGenerator

    /// The configuration every benchmark store uses: 16 GiB initial map, the given durability.
    ///
    /// ```swift
    /// let configuration = TweetieFixture.configuration(durability: .full)
    /// ```
    public static func configuration(durability: StoreConfiguration.Durability) -> StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.durability = durability
        configuration.mapSize = 16 << 30
        return configuration
    }

    /// Opens a new store in a new temporary directory (or at `path`), registering `collections`
    /// (`Tweet` unless given).
    ///
    /// ```swift
    /// let fixture = try TweetieFixture(durability: .full)
    /// ```
    public init(durability: StoreConfiguration.Durability = .full, path: String? = nil, seed: UInt64 = 0x5EED,
                collections: [any Record.Type] = [Tweet.self]) throws {
        self.path = path ?? TemporaryPath.make("tweetie")
        generator = TweetGenerator(seed: seed)
        store = try Store.open(at: self.path, configuration: Self.configuration(durability: durability), collections: collections)
    }

    /// Adds the tweets with ids `1...count` in transactions of at most `batch` records.
    ///
    /// ```swift
    /// try fixture.fill(count: 1_000_000)
    /// ```
    public func fill(count: Int, batch: Int = 100_000) throws {
        try fill(count: count, batch: batch) { $0 }
    }

    /// Adds the tweets with ids `1...count`, each batch made into records by `records` (another
    /// record type with `Tweet`'s fields), in transactions of at most `batch` records.
    ///
    /// ```swift
    /// try fixture.fill(count: 200_000) { $0.map(MacroTweet.init) }
    /// ```
    public func fill<R: Record>(count: Int, batch: Int = 100_000, _ records: ([Tweet]) -> [R]) throws {
        var start = 0
        while start < count {
            let end = min(count, start + batch)
            let batchRecords = records(generator.tweets(Int64(start + 1)..<Int64(end + 1)))
            try store.write { tx in try tx.add(contentsOf: batchRecords, update: .all) }
            start = end
        }
    }

    /// Closes the store and removes its directory.
    ///
    /// ```swift
    /// fixture.close()
    /// ```
    public func close() {
        store.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
