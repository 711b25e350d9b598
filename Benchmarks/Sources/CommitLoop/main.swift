import BenchSupport
import Foundation
import TweetieDB

// CommitLoop: suite 2's small commits alone, to watch under strace or perf.
//
//   CommitLoop [--durability full|noMetaSync|noSync] [--commits N] [--preload N] [--writers N]
//
// It preloads the store, writes the line "commits begin" to stderr (a `write` to fd 2 that marks
// where the commits start in a trace), then makes the commits: one-record transactions, one after
// another (`--writers 1`, synchronous `write`) or from N tasks at once (async `write`).

var durability = StoreConfiguration.Durability.full
var commits = 1_000, preload = 10_000, writers = 1
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("CommitLoop: \(flag) needs a value\n".utf8))
        exit(2)
    }
    switch flag {
    case "--durability":
        guard let parsed = StoreConfiguration.Durability(rawValue: value) else {
            FileHandle.standardError.write(Data("CommitLoop: --durability: '\(value)' is not full, noMetaSync or noSync\n".utf8))
            exit(2)
        }
        durability = parsed
    case "--commits": commits = Int(value) ?? commits
    case "--preload": preload = Int(value) ?? preload
    case "--writers": writers = max(1, Int(value) ?? writers)
    default:
        FileHandle.standardError.write(Data("CommitLoop: unknown flag \(flag)\n".utf8))
        exit(2)
    }
}

let fixture = try TweetieFixture(durability: durability)
defer { fixture.close() }
try fixture.fill(count: preload)
FileHandle.standardError.write(Data("commits begin\n".utf8))
if writers == 1 {
    var id = Int64(preload)
    let stats = try Suites.measure(repetitions: commits, warmup: 0) {
        id += 1
        let tweet = fixture.generator.tweet(id: id)
        try fixture.store.write { tx in try tx.add(tweet, update: .all) }
    }
    print("\(commits) commits, .\(durability.rawValue): p50 \(Double(stats.p50) / 1e6) ms, p99 \(Double(stats.p99) / 1e6) ms, \(Int(1e9 / stats.mean)) commits/s")
} else {
    let store = fixture.store
    let result = try await Suites.concurrentCommits(writers: writers, commits: commits, firstID: Int64(preload + 1), generator: fixture.generator) { tweet in
        _ = try await store.write { tx in try tx.add(tweet, update: .all) }
    }
    print("\(commits) commits from \(writers) writers, .\(durability.rawValue): p50 \(Double(result.latency.p50) / 1e6) ms, \(Int(result.commitsPerSecond)) commits/s")
}
