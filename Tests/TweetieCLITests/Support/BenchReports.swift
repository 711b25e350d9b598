import TweetieSync

// The JSON reports of `tweetie-db bench reads` and `bench writes`, as a client reads them: written from
// the output (the keys `--format json` prints), not imported from the executable, so that a renamed
// or dropped key fails here the way it would fail a user's script.

/// `bench writes --format json` with one round (`--rounds 1`).
struct BenchWritesResult: Decodable {
    var records: Int
    var batch: Int
    var commits: Int
    var durability: StoreConfiguration.Durability
    var seconds: Double
    var recordsPerSecond: Double
    var latency: BenchLatency
}

/// `bench writes --format json` over several rounds.
struct BenchWritesSummary: Decodable {
    var records: Int
    var batch: Int
    var commits: Int
    var durability: StoreConfiguration.Durability
    var rounds: Int
    var warmUpRounds: Int
    var seconds: Double
    var recordsPerSecond: Double
    var minRecordsPerSecond: Double
    var maxRecordsPerSecond: Double
    var roundRecordsPerSecond: [Double]
    var warmUpRecordsPerSecond: Double
    var latency: BenchLatency
    var raw: RawFloor?

    /// The raw `mdb_put` floor measured beside the store (`--raw`).
    struct RawFloor: Decodable {
        var seconds: Double
        var recordsPerSecond: Double
        var minRecordsPerSecond: Double
        var maxRecordsPerSecond: Double
        var ratio: Double
    }
}

/// Commit latencies of `bench writes`, in seconds.
struct BenchLatency: Decodable {
    var min: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var p999: Double
    var max: Double
    var count: Int
}

/// `bench reads --format json`.
struct BenchReadsResult: Decodable {
    var records: Int
    var scanRecordsPerSecond: Double
    var pagesChecked: Int
    var pageCheckSeconds: Double
}
