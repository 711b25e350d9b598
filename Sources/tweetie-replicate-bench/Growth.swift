import ArgumentParser
import Foundation
import TweetieDB
import TweetieReplication
import TweetieSync

/// What the server holds at one moment of the growth run.
struct GrowthSample {
    var elapsed: Double
    var written: Int
    var changeRows: Int
    var changesBytes: Int
    var recordsBytes: Int
    /// The size of pg_wal (`nil`: the user may not list it; pg_ls_waldir needs pg_monitor).
    var walBytes: Int?
}

/// Device A rewrites `keys` tweets without pause (`rate` records a second, in commits of 100)
/// while A and B follow with `run`, pruning with a `retention` of one minute every 10 seconds;
/// the server's tables and WAL are sampled `samples` times over `seconds`.
func measureGrowth(_ scratch: Scratch, seconds total: Int, keys: Int, rate: Int, samples: Int,
                   report: (GrowthSample) -> Void) async throws {
    let configure = { (configuration: inout ReplicatorConfiguration) in
        configuration.retention = .seconds(60)
        configuration.pruneInterval = .seconds(10)
        configuration.pollInterval = .seconds(1)
    }
    let a = try scratch.store(), b = try scratch.store()
    let ra = try scratch.replicator(a, configure: configure), rb = try scratch.replicator(b, configure: configure)
    try await ra.once()
    try await rb.once()
    let followers = [Task { try await ra.run() }, Task { try await rb.run() }]
    defer { followers.forEach { $0.cancel() } }
    let base = SyntheticTweets(seed: 11).make(count: keys)
    let clock = ContinuousClock()
    let start = clock.now
    let commitSize = 100
    let interval = Duration.seconds(Double(commitSize) / Double(rate))
    var written = 0
    var next = 1
    var round = 0
    while start.duration(to: clock.now) < .seconds(total) {
        let due = start + interval * written / commitSize
        if clock.now < due { try await Task.sleep(until: due, clock: clock) }
        round += 1
        let batch = (0..<commitSize).map { offset -> Tweet in
            var tweet = base[(written + offset) % keys]
            tweet.text = "rewrite \(round) of \(tweet.id)"
            return tweet
        }
        try await a.write { tx in _ = try tx.add(contentsOf: batch, update: .all) }
        written += commitSize
        let elapsed = seconds(start.duration(to: clock.now))
        if elapsed >= Double(total) * Double(next) / Double(samples) {
            next += 1
            report(try sample(scratch, elapsed: elapsed, written: written))
        }
    }
    // A follower that stopped on an error (not a cancellation) fails the run.
    followers.forEach { $0.cancel() }
    for follower in followers { try await follower.value }
}

/// The change table's rows, the tables' sizes with their indexes and TOAST, and pg_wal's size.
func sample(_ scratch: Scratch, elapsed: Double, written: Int) throws -> GrowthSample {
    let line = try psql(scratch.url, """
        SELECT (SELECT count(*) FROM tweetie.changes), pg_total_relation_size('tweetie.changes'), pg_total_relation_size('tweetie.records')
        """).split(separator: "|").map { Int($0) ?? 0 }
    let wal = try? psql(scratch.url, "SELECT sum(size) FROM pg_ls_waldir()")
    return GrowthSample(elapsed: elapsed, written: written, changeRows: line[0], changesBytes: line[1], recordsBytes: line[2],
                        walBytes: wal.flatMap { Int($0) })
}
