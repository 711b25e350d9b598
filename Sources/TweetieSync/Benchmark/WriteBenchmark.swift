import Foundation

/// A write benchmark on a store: tweet-shaped records with the real indexes, committed in batches,
/// timing every commit.
///
/// ```swift
/// let result = try WriteBenchmark(records: 100_000, batch: 1_000).run(on: store)
/// print(result.recordsPerSecond, result.latency.p99)
/// ```
public struct WriteBenchmark: Sendable {
    /// How many records to write.
    ///
    /// ```swift
    /// print(benchmark.records)
    /// ```
    public var records: Int
    /// Records per write transaction.
    ///
    /// ```swift
    /// print(benchmark.batch)
    /// ```
    public var batch: Int
    /// The seed of the synthetic tweets.
    ///
    /// ```swift
    /// print(benchmark.seed)
    /// ```
    public var seed: UInt64

    /// A benchmark of `records` records in transactions of `batch`.
    ///
    /// ```swift
    /// let benchmark = WriteBenchmark(records: 10_000, batch: 1)
    /// ```
    public init(records: Int, batch: Int, seed: UInt64 = 1) {
        self.records = records
        self.batch = batch
        self.seed = seed
    }

    /// Commit latency percentiles, in seconds.
    ///
    /// ```swift
    /// print(result.latency.p50 * 1000, "ms")
    /// ```
    public struct Latency: Sendable, Hashable, Codable {
        /// The median.
        public var p50: Double
        /// The 90th percentile.
        public var p90: Double
        /// The 99th percentile.
        public var p99: Double
        /// The slowest commit.
        public var max: Double
    }

    /// What the run measured.
    ///
    /// ```swift
    /// print(result.commits, result.seconds)
    /// ```
    public struct Result: Sendable, Hashable, Codable {
        /// Records written.
        public var records: Int
        /// Records per transaction.
        public var batch: Int
        /// Transactions committed.
        public var commits: Int
        /// The store's durability.
        public var durability: Durability
        /// Wall-clock seconds for all commits (generation excluded).
        public var seconds: Double
        /// Records per second.
        public var recordsPerSecond: Double
        /// Commits per second.
        public var commitsPerSecond: Double
        /// Per-commit latency percentiles.
        public var latency: Latency
    }

    /// Runs the benchmark; `progress` is called after each commit with the records written so far.
    ///
    /// ```swift
    /// let result = try benchmark.run(on: store) { done in print(done) }
    /// ```
    public func run(on store: Store, progress: ((Int) -> Void)? = nil) throws -> Result {
        precondition(records >= 0 && batch > 0, "records must be non-negative and batch positive")
        let generator = SyntheticTweets(seed: seed)
        var latencies: [Double] = []
        latencies.reserveCapacity(records / batch + 1)
        var total: Double = 0
        var written = 0
        while written < records {
            let tweets = generator.make(count: Swift.min(batch, records - written), from: written)
            let start = DispatchTime.now().uptimeNanoseconds
            try store.write { tx in try tx.add(contentsOf: tweets, update: .all) }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            latencies.append(elapsed)
            total += elapsed
            written += tweets.count
            progress?(written)
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return latencies[Swift.min(latencies.count - 1, Int((p * Double(latencies.count)).rounded(.up)) - 1)]
        }
        return Result(records: written, batch: batch, commits: latencies.count, durability: store.configuration.environment.durability,
                      seconds: total, recordsPerSecond: total > 0 ? Double(written) / total : 0,
                      commitsPerSecond: total > 0 ? Double(latencies.count) / total : 0,
                      latency: Latency(p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: latencies.last ?? 0))
    }
}
