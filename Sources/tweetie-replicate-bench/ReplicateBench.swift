import ArgumentParser
import Foundation
import Logging
import TweetieDB
import TweetieReplication
import TweetieSync

/// The replication benchmark (BENCHMARKS.md, "Replication through PostgreSQL"): not a test. It
/// creates a scratch database on the server it is given, and drops it at the end.
@main
struct ReplicateBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-replicate-bench",
        abstract: "Measure replication through PostgreSQL: push and pull rates, the initial download against COPY, and commit-to-changeset latency.",
        discussion: "Needs a PostgreSQL server whose user may create databases (--postgres, or $TWEETIE_POSTGRES_URL): each part runs in a scratch database tweetie_bench_<random>, dropped afterwards. psql must be on the PATH (it runs the COPY floor).")

    @Option(help: "The server (any database on it; the bench creates its own).")
    var postgres: String?

    @Option(help: "Records pushed and pulled at each batch size.")
    var records = 20_000

    @Option(help: "Batch sizes, comma-separated.")
    var batches = "1,100,1000"

    @Option(help: "Records of the initial download (0: skip it).")
    var download = 200_000

    @Option(help: "Commits timed from device A to a changeset on device B.")
    var commits = 50

    @Option(help: "Devices following, comma-separated counts.")
    var followers = "1,10"

    @Option(help: "Seconds of the growth run: one device rewrites tweets while two follow and prune, and the server's tables and WAL are sampled (0: skip it).")
    var growth = 0

    @Option(help: "Records written a second in the growth run, rewriting 10,000 tweets.")
    var growthRate = 1_000

    func run() async throws {
        guard let text = postgres ?? ProcessInfo.processInfo.environment["TWEETIE_POSTGRES_URL"] else {
            throw ValidationError("pass --postgres URL or set TWEETIE_POSTGRES_URL")
        }
        let server = try PostgresURL(text)
        let batchSizes = batches.split(separator: ",").compactMap { Int($0) }
        let followerCounts = followers.split(separator: ",").compactMap { Int($0) }
        print("replication benchmark: \(server), \(records) records per rate, download \(download), \(commits) commits")
        for batch in batchSizes {
            let count = batch == 1 ? min(records, 2_000) : records
            try await Scratch.with(server) { scratch in
                let (push, pull) = try await measureRates(scratch, records: count, batch: batch)
                print(String(format: "batch %5d: push %8.0f records/s, pull %8.0f records/s (%d records)", batch, push, pull, count))
            }
        }
        if download > 0 {
            try await Scratch.with(server) { scratch in
                let (rate, floor) = try await measureDownload(scratch, records: download)
                print(String(format: "initial download of %d records: %.0f records/s; COPY of the same rows: %.0f records/s (%.2fx the floor)",
                             download, rate, floor, rate / floor))
            }
        }
        for count in followerCounts {
            try await Scratch.with(server) { scratch in
                let (p50, p99) = try await measureLatency(scratch, followers: count, commits: commits)
                print(String(format: "commit on A -> changeset on B, %2d devices following: p50 %.1f ms, p99 %.1f ms", count, p50, p99))
            }
        }
        if growth > 0 {
            print("growth over \(growth) s at \(growthRate) records/s, retention 60 s, pruning every 10 s:")
            try await Scratch.with(server) { scratch in
                try await measureGrowth(scratch, seconds: growth, keys: 10_000, rate: growthRate, samples: 10) { sample in
                    let mb = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
                    print(String(format: "  %5.0f s: %8d written, %7d change rows, ", sample.elapsed, sample.written, sample.changeRows)
                          + "changes \(mb(sample.changesBytes)), records \(mb(sample.recordsBytes)), pg_wal \(sample.walBytes.map(mb) ?? "not readable")")
                }
            }
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Push `records` new tweets from A at `batch` records a transaction, then pull them into B
/// (which pulled the empty database first, so it reads the change table, not a snapshot).
func measureRates(_ scratch: Scratch, records: Int, batch: Int) async throws -> (push: Double, pull: Double) {
    let a = try scratch.store(), b = try scratch.store()
    let ra = try scratch.replicator(a, batch: batch), rb = try scratch.replicator(b, batch: batch)
    try await ra.once()
    try await rb.once()
    let tweets = SyntheticTweets(seed: 3).make(count: records)
    try await a.write { tx in _ = try tx.add(contentsOf: tweets) }
    let clock = ContinuousClock()
    let pushStart = clock.now
    let pushed = try await ra.push()
    let pushTime = pushStart.duration(to: clock.now)
    guard pushed.pushed == records else { throw ValidationError("pushed \(pushed.pushed) of \(records)") }
    let pullStart = clock.now
    let pulled = try await rb.pull()
    let pullTime = pullStart.duration(to: clock.now)
    guard pulled.applied == records else { throw ValidationError("applied \(pulled.applied) of \(records)") }
    return (Double(records) / seconds(pushTime), Double(records) / seconds(pullTime))
}

/// `records` tweets written on the server with SQL, then a new device's first pull (a snapshot),
/// against `COPY (SELECT … FROM tweetie.records) TO STDOUT` of the same rows through psql.
func measureDownload(_ scratch: Scratch, records: Int) async throws -> (rate: Double, floor: Double) {
    let seed = try scratch.store()
    let rs = try scratch.replicator(seed, batch: 5_000)
    let tweets = SyntheticTweets(seed: 5).make(count: records)
    for start in stride(from: 0, to: records, by: 50_000) {
        let slice = Array(tweets[start..<min(records, start + 50_000)])
        try await seed.write { tx in _ = try tx.add(contentsOf: slice) }
    }
    try await rs.push()
    let clock = ContinuousClock()
    let copyStart = clock.now
    try psql(scratch.url, "\\copy (SELECT collection, key, version, schema_version, record FROM tweetie.records WHERE NOT deleted ORDER BY collection, key) TO '/dev/null'")
    let copyTime = copyStart.duration(to: clock.now)
    let fresh = try scratch.store()
    let rf = try scratch.replicator(fresh, batch: 5_000)
    let start = clock.now
    let pulled = try await rf.pull()
    let time = start.duration(to: clock.now)
    guard pulled.applied == records else { throw ValidationError("downloaded \(pulled.applied) of \(records)") }
    return (Double(records) / seconds(time), Double(records) / seconds(copyTime))
}

/// Device A commits one new tweet at a time; `followers` devices run; the time from A's commit to
/// the changeset on the first follower's observation.
func measureLatency(_ scratch: Scratch, followers: Int, commits: Int) async throws -> (p50: Double, p99: Double) {
    let a = try scratch.store()
    let ra = try scratch.replicator(a)
    try await ra.once()
    var tasks: [Task<Void, any Error>] = []
    var stores: [Store] = []
    for _ in 0..<followers {
        let store = try scratch.store()
        let replicator = try scratch.replicator(store)
        try await replicator.once()
        stores.append(store)
        tasks.append(Task { try await replicator.run() })
    }
    tasks.append(Task { try await ra.run() })
    defer { tasks.forEach { $0.cancel() } }
    let observed = stores[0].observe(Query<Tweet>()).makeAsyncIterator()
    _ = try await observed.next()
    let clock = ContinuousClock()
    var latencies: [Double] = []
    let tweets = SyntheticTweets(seed: 9).make(count: commits)
    try await Task.sleep(for: .milliseconds(300))
    for tweet in tweets {
        let start = clock.now
        try await a.write { tx in try tx.add(tweet) }
        while true {
            guard let change = try await observed.next() else { throw ValidationError("the observation ended") }
            if change.results.contains(where: { $0.id == tweet.id }) { break }
        }
        latencies.append(seconds(start.duration(to: clock.now)) * 1000)
    }
    latencies.sort()
    let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
    return (latencies[latencies.count / 2], p99)
}
