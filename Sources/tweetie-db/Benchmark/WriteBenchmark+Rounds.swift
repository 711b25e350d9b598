import Foundation
import Histogram
import TweetieSync

extension WriteBenchmark {
    /// What ``run(rounds:configuration:into:compareRaw:progress:)`` measured over its rounds.
    ///
    /// The single-round fields of ``Result`` keep their names and hold the median round, so a
    /// reader of a single ``Result`` decodes a summary too.
    ///
    /// ```swift
    /// let summary = try WriteBenchmark(records: 10_000, batch: 10_000).run(rounds: 5, configuration: StoreConfiguration())
    /// print(summary.minRecordsPerSecond, summary.recordsPerSecond, summary.maxRecordsPerSecond)
    /// ```
    struct Summary: Sendable, Hashable, Codable {
        /// Records written in each round.
        var records: Int
        /// Records per transaction.
        var batch: Int
        /// Transactions committed in each round.
        var commits: Int
        /// The stores' durability.
        var durability: StoreConfiguration.Durability
        /// Measured rounds (the warm-up excluded).
        var rounds: Int
        /// Untimed rounds run first, into a fresh database of their own.
        var warmUpRounds: Int
        /// Commit seconds of the median round (nearest rank over the rounds' durations).
        var seconds: Double
        /// Records per second of the median round.
        var recordsPerSecond: Double
        /// Records per second of the slowest round.
        var minRecordsPerSecond: Double
        /// Records per second of the fastest round.
        var maxRecordsPerSecond: Double
        /// Records per second of each measured round, in the order they ran.
        var roundRecordsPerSecond: [Double]
        /// Records per second of the warm-up round: what one cold round in a fresh process gives.
        var warmUpRecordsPerSecond: Double
        /// Commits per second of the median round.
        var commitsPerSecond: Double
        /// Commit latency percentiles over every commit of every measured round.
        var latency: Latency
        /// The raw-LMDB floor, when asked for.
        var raw: RawFloor?
    }

    /// The floor: the same records' encoded bytes put with plain `mdb_put` under their primary
    /// keys, into a fresh environment with no indexes and no change log, in one transaction.
    ///
    /// ```swift
    /// if let raw = summary.raw { print(raw.ratio) }
    /// ```
    struct RawFloor: Sendable, Hashable, Codable {
        /// Seconds of the median raw round (begin to commit).
        var seconds: Double
        /// Records per second of the median raw round.
        var recordsPerSecond: Double
        /// Records per second of the slowest and fastest raw round.
        var minRecordsPerSecond: Double, maxRecordsPerSecond: Double
        /// The store's median rate over the raw median rate, as BenchCompare's suite 1 row.
        var ratio: Double
    }

    /// A moment of ``run(rounds:configuration:into:compareRaw:progress:)``, for a progress display.
    ///
    /// ```swift
    /// try benchmark.run(rounds: 3, configuration: configuration) { print($0.round, $0.written) }
    /// ```
    struct Progress: Sendable {
        /// The round (0 is the warm-up, then 1…rounds).
        var round: Int
        /// Records the store has committed in this round.
        var written: Int
    }

    /// Runs one untimed warm-up round, then `rounds` measured rounds, each into a fresh temporary
    /// database (removed afterwards) opened with `configuration`; with `compareRaw`, each round
    /// is followed by the raw floor of the same records (``RawFloor``).
    ///
    /// With `existing`, the one measured round writes into that store instead (`rounds` must be 1);
    /// the warm-up still goes to a fresh database with the store's configuration. A fresh
    /// database's map starts large enough for the round (4 KiB per record), as BenchCompare's
    /// does, so no round pays for map growth (which re-runs a transaction).
    ///
    /// ```swift
    /// let summary = try WriteBenchmark(records: 100_000, batch: 100_000).run(rounds: 5, configuration: configuration, compareRaw: true)
    /// ```
    func run(rounds: Int, configuration: StoreConfiguration, into existing: Store? = nil, compareRaw: Bool = false,
                    progress: ((Progress) -> Void)? = nil) throws -> Summary {
        precondition(rounds > 0 && (existing == nil || rounds == 1), "rounds must be positive, and 1 with an existing store")
        var configuration = existing?.configuration ?? configuration
        let freshMap = Swift.max(configuration.mapSize, records.multipliedReportingOverflow(by: 4096).partialValue)
        configuration.mapSize = Swift.min(freshMap, configuration.maximumMapSize)
        let pairs = compareRaw ? try encodedPairs() : nil
        var histogram = Histogram<UInt64>()
        var results: [Result] = []
        var warmUp = 0.0
        var rawSeconds: [Double] = []
        for round in 0...rounds {
            let report = { (written: Int) -> Void in progress?(Progress(round: round, written: written)) }
            let measured: (result: Result, commits: Histogram<UInt64>)
            if round > 0, let existing {
                measured = try measure(on: existing, progress: report)
            } else {
                let store = try Store.temporary(collections: TweetieDatabase.collections, configuration: configuration, keepDurability: true)
                defer { store.close() }
                measured = try measure(on: store, progress: report)
            }
            let raw = try pairs.map { try Store.rawPutFloor($0, configuration: configuration) }
            guard round > 0 else {
                warmUp = measured.result.recordsPerSecond
                continue
            }
            results.append(measured.result)
            histogram.add(measured.commits)
            if let raw { rawSeconds.append(raw) }
        }
        let median = Self.medianRank(results.map(\.seconds))
        let middle = results[median]
        let rates = results.map(\.recordsPerSecond)
        var summary = Summary(records: middle.records, batch: batch, commits: middle.commits, durability: middle.durability,
                              rounds: rounds, warmUpRounds: 1, seconds: middle.seconds, recordsPerSecond: middle.recordsPerSecond,
                              minRecordsPerSecond: rates.min() ?? 0, maxRecordsPerSecond: rates.max() ?? 0, roundRecordsPerSecond: rates,
                              warmUpRecordsPerSecond: warmUp, commitsPerSecond: middle.commitsPerSecond, latency: Latency(histogram), raw: nil)
        if !rawSeconds.isEmpty {
            let seconds = rawSeconds[Self.medianRank(rawSeconds)]
            let rate = { (s: Double) in s > 0 ? Double(records) / s : 0 }
            summary.raw = RawFloor(seconds: seconds, recordsPerSecond: rate(seconds),
                                   minRecordsPerSecond: rate(rawSeconds.max() ?? 0), maxRecordsPerSecond: rate(rawSeconds.min() ?? 0),
                                   ratio: rate(seconds) > 0 ? summary.recordsPerSecond / rate(seconds) : 0)
        }
        return summary
    }

    /// The index of the median of `values` by nearest rank (the lower middle of an even count),
    /// as BenchCompare takes its medians.
    static func medianRank(_ values: [Double]) -> Int {
        let order = values.indices.sorted { values[$0] < values[$1] }
        return order[Swift.max(0, Int((0.5 * Double(values.count)).rounded(.up)) - 1)]
    }

    /// The records every round writes, as the store keys and encodes them.
    func encodedPairs() throws -> (keys: [[UInt8]], values: [[UInt8]]) {
        let tweets = SyntheticTweets(seed: seed).make(count: records)
        let encoder = RecordEncoder()
        let keys = tweets.map { tweet in
            var key = KeyEncoder()
            key.append(tweet.primaryKey)
            return key.bytes
        }
        return (keys, try tweets.map { try encoder.encode($0) })
    }
}
