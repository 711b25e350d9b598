import Foundation
import TweetieDB
import TweetieSync
import GRDB

/// One commit's worth of changes for the notification suite: inserts, updates that move rows
/// (a new `created`), and deletes, drawn deterministically from the live ids.
///
/// ```swift
/// var live = LiveIDs(count: 10_000)
/// var rng = SplitMix64(seed: 1)
/// let batch = ChangeBatch.make(k: 100, live: &live, generator: generator, rng: &rng)
/// try batch.apply(to: store)
/// ```
public struct ChangeBatch: Sendable {
    /// New and updated tweets (upserted).
    ///
    /// ```swift
    /// print(batch.upserts.count)
    /// ```
    public var upserts: [Tweet]
    /// Ids deleted.
    ///
    /// ```swift
    /// print(batch.deletes.count)
    /// ```
    public var deletes: [Int64]
    /// How many of ``upserts`` are inserts.
    ///
    /// ```swift
    /// print(batch.insertCount)
    /// ```
    public var insertCount: Int

    /// A batch of `k` changes: 40 % inserts, 40 % moving updates, 20 % deletes; `live` is updated.
    ///
    /// ```swift
    /// let batch = ChangeBatch.make(k: 100, live: &live, generator: generator, rng: &rng)
    /// ```
    public static func make(k: Int, live: inout LiveIDs, generator: TweetGenerator, rng: inout SplitMix64) -> ChangeBatch {
        let inserts = k * 2 / 5
        let updates = k * 2 / 5
        let deletes = k - inserts - updates
        // Anywhere on the timeline so far, in whole seconds.
        let span = UInt64(max(1, live.nextID)) * UInt64(TweetGenerator.spacing)
        func randomDate() -> Date { TweetGenerator.date(seconds: Int64(rng.next() % span)) }
        var batch = ChangeBatch(upserts: [], deletes: [], insertCount: inserts)
        var touched: Set<Int64> = []
        for _ in 0..<updates {
            var id = live.random(&rng)
            while touched.contains(id) { id = live.random(&rng) }
            touched.insert(id)
            var tweet = generator.tweet(id: id)
            tweet.created = randomDate()
            tweet.retweetCount += 1
            batch.upserts.append(tweet)
        }
        for _ in 0..<deletes {
            var id = live.random(&rng)
            while touched.contains(id) { id = live.random(&rng) }
            touched.insert(id)
            live.remove(id)
            batch.deletes.append(id)
        }
        for _ in 0..<inserts {
            let id = live.insertNew()
            var tweet = generator.tweet(id: id)
            tweet.created = randomDate()
            batch.upserts.append(tweet)
        }
        return batch
    }

    /// Commits the batch to a TweetieDB store in one transaction.
    ///
    /// ```swift
    /// try batch.apply(to: fixture.store)
    /// ```
    public func apply(to store: Store) throws {
        try store.write { tx in
            try tx.add(contentsOf: upserts, update: .all)
            for id in deletes { try tx.delete(Tweet.self, key: id) }
        }
    }

    /// Commits the batch to the GRDB peer in one transaction.
    ///
    /// ```swift
    /// try batch.apply(to: peer)
    /// ```
    public func apply(to peer: GRDBPeer) throws {
        try peer.pool.write { db in
            try GRDBPeer.upsert(upserts, in: db)
            let statement = try db.cachedStatement(sql: "DELETE FROM tweets WHERE id = ?")
            for id in deletes { try statement.execute(arguments: [id]) }
        }
    }
}

/// The ids currently stored, with O(1) random pick, removal and insertion of a fresh id.
///
/// ```swift
/// var live = LiveIDs(count: 100)
/// let fresh = live.insertNew() // 101
/// ```
public struct LiveIDs: Sendable {
    private var ids: [Int64]
    private var positions: [Int64: Int]
    /// The next fresh id.
    ///
    /// ```swift
    /// print(live.nextID)
    /// ```
    public private(set) var nextID: Int64

    /// The ids `1...count` (the ids `TweetieFixture.fill(count:)` stores).
    ///
    /// ```swift
    /// var live = LiveIDs(count: 10_000)
    /// ```
    public init(count: Int) {
        ids = (1..<Int64(count + 1)).map { $0 }
        positions = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        nextID = Int64(count + 1)
    }

    /// How many ids are live.
    ///
    /// ```swift
    /// print(live.count)
    /// ```
    public var count: Int { ids.count }

    /// A uniformly random live id.
    ///
    /// ```swift
    /// let id = live.random(&rng)
    /// ```
    public func random(_ rng: inout SplitMix64) -> Int64 { ids[Int(rng.next() % UInt64(ids.count))] }

    /// Removes `id`.
    ///
    /// ```swift
    /// live.remove(7)
    /// ```
    public mutating func remove(_ id: Int64) {
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = ids.removeLast()
        if position < ids.count {
            ids[position] = last
            positions[last] = position
        }
    }

    /// Adds and returns a fresh id.
    ///
    /// ```swift
    /// let id = live.insertNew()
    /// ```
    public mutating func insertNew() -> Int64 {
        let id = nextID
        nextID += 1
        positions[id] = ids.count
        ids.append(id)
        return id
    }
}
