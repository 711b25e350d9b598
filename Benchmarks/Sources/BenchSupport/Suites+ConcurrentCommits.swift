import Foundation
import GRDB
import TweetieDB
import TweetieSync

// Suite 2 with several writers at once: each awaits its own one-record commits, so a store that
// shares one durable commit among queued writers can answer more of them per fsync.
extension Suites {
    /// What `writers` concurrent writers achieved: every caller's commit latency and the total
    /// rate (commits over the wall time from the first start to the last answer).
    ///
    /// ```swift
    /// let result = try await Suites.tweetieConcurrentCommits(durability: .full, writers: 4, commits: 400)
    /// print(result.commitsPerSecond, result.latency.p50)
    /// ```
    public struct ConcurrentCommits: Sendable {
        /// Each commit's latency as its caller saw it (from the call to the answer).
        public var latency: LatencyStats
        /// Commits answered per second of wall time, all writers together.
        public var commitsPerSecond: Double
    }

    /// `writers` tasks each making `commits / writers` async one-record commits (`await store.write`)
    /// on a store preloaded with `preload` records.
    ///
    /// ```swift
    /// let result = try await Suites.tweetieConcurrentCommits(durability: .full, writers: 4, commits: 400)
    /// ```
    public static func tweetieConcurrentCommits(durability: StoreConfiguration.Durability, writers: Int, commits: Int,
                                                preload: Int = 10_000) async throws -> ConcurrentCommits {
        let fixture = try TweetieFixture(durability: durability)
        defer { fixture.close() }
        try fixture.fill(count: preload)
        let store = fixture.store
        return try await concurrentCommits(writers: writers, commits: commits, firstID: Int64(preload + 1), generator: fixture.generator) { tweet in
            _ = try await store.write { tx in try tx.add(tweet, update: .all) }
        }
    }

    /// The same for GRDB: `writers` tasks each making async one-row commits (`await pool.write`),
    /// which the pool runs one after another, each with its own WAL sync.
    ///
    /// ```swift
    /// let result = try await Suites.grdbConcurrentCommits(synchronous: .full, writers: 4, commits: 400)
    /// ```
    public static func grdbConcurrentCommits(synchronous: GRDBPeer.Synchronous, writers: Int, commits: Int,
                                             preload: Int = 10_000) async throws -> ConcurrentCommits {
        let peer = try GRDBPeer(synchronous: synchronous)
        defer { peer.close() }
        try fill(peer, count: preload)
        let pool = peer.pool
        return try await concurrentCommits(writers: writers, commits: commits, firstID: Int64(preload + 1), generator: TweetGenerator()) { tweet in
            _ = try await pool.write { db in try GRDBPeer.upsert(CollectionOfOne(tweet), in: db) }
        }
    }

    /// Runs `commit` for `commits` new tweets (ids from `firstID`, drawn before the clock starts),
    /// split among `writers` tasks, after one untimed commit per writer.
    ///
    /// ```swift
    /// let result = try await Suites.concurrentCommits(writers: 4, commits: 400, firstID: 10_001, generator: fixture.generator) { tweet in
    ///     _ = try await fixture.store.write { tx in try tx.add(tweet, update: .all) }
    /// }
    /// ```
    public static func concurrentCommits(writers: Int, commits: Int, firstID: Int64, generator: TweetGenerator,
                                          commit: @escaping @Sendable (Tweet) async throws -> Void) async throws -> ConcurrentCommits {
        let perWriter = max(1, commits / writers)
        let tweets = generator.tweets(firstID..<(firstID + Int64(writers * (perWriter + 1))))
        let start = Nanoseconds.monotonic()
        let samples = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for writer in 0..<writers {
                let mine = Array(tweets[(writer * (perWriter + 1))..<((writer + 1) * (perWriter + 1))])
                group.addTask {
                    try await commit(mine[0])
                    var samples: [UInt64] = []
                    samples.reserveCapacity(perWriter)
                    for tweet in mine.dropFirst() {
                        let started = Nanoseconds.monotonic()
                        try await commit(tweet)
                        samples.append(Nanoseconds.monotonic() - started)
                    }
                    return samples
                }
            }
            var all: [UInt64] = []
            for try await samples in group { all += samples }
            return all
        }
        let elapsed = Nanoseconds.monotonic() - start
        return ConcurrentCommits(latency: LatencyStats(samples), commitsPerSecond: Double(writers * (perWriter + 1)) / (Double(elapsed) / 1e9))
    }
}
