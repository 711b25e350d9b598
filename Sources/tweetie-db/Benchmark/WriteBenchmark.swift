import Foundation
import Histogram
import TweetieSync

/// A write benchmark on a store: tweet-shaped records with the real indexes, committed in batches,
/// timing every commit.
///
/// ```swift
/// let result = try WriteBenchmark(records: 100_000, batch: 1_000).run(on: store)
/// print(result.recordsPerSecond, result.latency.p99)
/// ```
struct WriteBenchmark: Sendable {
    /// How many records to write.
    ///
    /// ```swift
    /// print(benchmark.records)
    /// ```
    var records: Int
    /// Records per write transaction.
    ///
    /// ```swift
    /// print(benchmark.batch)
    /// ```
    var batch: Int
    /// The seed of the synthetic tweets.
    ///
    /// ```swift
    /// print(benchmark.seed)
    /// ```
    var seed: UInt64

    /// A benchmark of `records` records in transactions of `batch`.
    ///
    /// ```swift
    /// let benchmark = WriteBenchmark(records: 10_000, batch: 1)
    /// ```
    init(records: Int, batch: Int, seed: UInt64 = 1) {
        self.records = records
        self.batch = batch
        self.seed = seed
    }

    /// Commit latency percentiles, in seconds, read from an HdrHistogram of the commit times
    /// (three significant digits: each percentile is within 0.1 % of the exact order statistic).
    ///
    /// ```swift
    /// print(result.latency.p50 * 1000, "ms")
    /// ```
    struct Latency: Sendable, Hashable, Codable {
        /// The fastest commit.
        var min: Double
        /// The median.
        var p50: Double
        /// The 90th percentile.
        var p90: Double
        /// The 99th percentile.
        var p99: Double
        /// The 99.9th percentile.
        var p999: Double
        /// The slowest commit.
        var max: Double
        /// Commits measured.
        var count: Int

        /// The percentiles of `histogram` (nanoseconds); all zero when it is empty.
        init(_ histogram: Histogram<UInt64>) {
            func seconds(_ ns: UInt64) -> Double { histogram.totalCount == 0 ? 0 : Double(ns) / 1e9 }
            min = seconds(histogram.min)
            p50 = seconds(histogram.valueAtPercentile(50))
            p90 = seconds(histogram.valueAtPercentile(90))
            p99 = seconds(histogram.valueAtPercentile(99))
            p999 = seconds(histogram.valueAtPercentile(99.9))
            max = seconds(histogram.maxRecorded)
            count = Int(histogram.totalCount)
        }
    }

    /// What the run measured.
    ///
    /// ```swift
    /// print(result.commits, result.seconds)
    /// ```
    struct Result: Sendable, Hashable, Codable {
        /// Records written.
        var records: Int
        /// Records per transaction.
        var batch: Int
        /// Transactions committed.
        var commits: Int
        /// The store's durability.
        var durability: StoreConfiguration.Durability
        /// Wall-clock seconds for all commits (generation excluded).
        var seconds: Double
        /// Records per second.
        var recordsPerSecond: Double
        /// Commits per second.
        var commitsPerSecond: Double
        /// Per-commit latency percentiles.
        var latency: Latency
    }

    /// Runs the benchmark; `progress` is called after each commit with the records written so far.
    ///
    /// ```swift
    /// let result = try benchmark.run(on: store) { done in print(done) }
    /// ```
    func run(on store: Store, progress: ((Int) -> Void)? = nil) throws -> Result {
        try measure(on: store, progress: progress).result
    }

    /// One round: the result and the histogram of its commit times in nanoseconds.
    func measure(on store: Store, progress: ((Int) -> Void)? = nil) throws -> (result: Result, commits: Histogram<UInt64>) {
        precondition(records >= 0 && batch > 0, "records must be non-negative and batch positive")
        let generator = SyntheticTweets(seed: seed)
        var histogram = Histogram<UInt64>()
        var total: UInt64 = 0
        var written = 0
        while written < records {
            let tweets = generator.make(count: Swift.min(batch, records - written), from: written)
            let start = DispatchTime.now().uptimeNanoseconds
            try store.write { tx in try tx.add(contentsOf: tweets, update: .all) }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            histogram.record(elapsed)
            total += elapsed
            written += tweets.count
            progress?(written)
        }
        let seconds = Double(total) / 1e9
        let commits = Int(histogram.totalCount)
        let result = Result(records: written, batch: batch, commits: commits, durability: store.configuration.durability,
                            seconds: seconds, recordsPerSecond: seconds > 0 ? Double(written) / seconds : 0,
                            commitsPerSecond: seconds > 0 ? Double(commits) / seconds : 0, latency: Latency(histogram))
        return (result, histogram)
    }
}
