import BenchSupport
import Foundation
import TweetieDB
import TweetieSync

// CommitLoop: suite 2's small commits, or suite 4's writes, alone, to watch under strace or perf.
//
//   CommitLoop [--durability full|noMetaSync|noSync] [--commits N] [--preload N] [--writers N]
//              [--raw TREES] [--changes K]
//
// `--changes 100`: each commit is suite 4's write instead (a ``ChangeBatch`` of K changes at
// random places: 40 % inserts, 40 % updates that move `created`, 20 % deletes), without the
// observer, from one writer, so the write call's cost at `--preload 10000` and `--preload 1000000`
// can be compared (docs/benchmark-findings.md, "Observation and changesets").
//
// `--raw 1` or `--raw 5`: the same commits through LMDB's C API alone (suite 2's rows "against
// LMDB alone": the record only, or with the 4 entries a store commit writes beside it), no store.
//
// It preloads the store, writes the line "commits begin" to stderr (a `write` to fd 2 that marks
// where the commits start in a trace), then makes the commits: one-record transactions, one after
// another (`--writers 1`, synchronous `write`) or from N tasks at once (async `write`).

var durability = StoreConfiguration.Durability.full
var commits = 1_000, preload = 10_000, writers = 1, rawTrees = 0, changes = 0
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
    case "--raw": rawTrees = Int(value) == 5 ? 5 : 1
    case "--changes": changes = max(0, Int(value) ?? changes)
    default:
        FileHandle.standardError.write(Data("CommitLoop: unknown flag \(flag)\n".utf8))
        exit(2)
    }
}

if rawTrees > 0 {
    let stats = try Suites.rawSmallCommits(trees: rawTrees, commits: commits, preload: preload)
    print("\(commits) commits, raw LMDB with \(rawTrees) B-tree(s): p50 \(Double(stats.p50) / 1e6) ms, p99 \(Double(stats.p99) / 1e6) ms, \(Int(1e9 / stats.mean)) commits/s")
    exit(0)
}
if changes > 0, preload < changes {
    // A batch updates and deletes 60 % of its K changes, each a different record already there.
    FileHandle.standardError.write(Data("CommitLoop: --changes \(changes) needs --preload of at least \(changes) records (it is \(preload))\n".utf8))
    exit(2)
}
let fixture = try TweetieFixture(durability: durability)
defer { fixture.close() }
try fixture.fill(count: preload)
// Suite 4's batches are drawn before the marker, so a trace after it holds the commits alone.
var live = LiveIDs(count: changes > 0 ? preload : 0), rng = SplitMix64(seed: 99)
let batches = changes > 0 ? (0..<commits).map { _ in ChangeBatch.make(k: changes, live: &live, generator: fixture.generator, rng: &rng) } : []
FileHandle.standardError.write(Data("commits begin\n".utf8))
if changes > 0 {
    var next = 0
    let stats = try Suites.measure(repetitions: commits, warmup: 0) {
        try batches[next].apply(to: fixture.store)
        next += 1
    }
    print("\(commits) commits of \(changes) changes over \(preload) records, .\(durability.rawValue): p50 \(Double(stats.p50) / 1e6) ms, p99 \(Double(stats.p99) / 1e6) ms")
} else if writers == 1 {
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
