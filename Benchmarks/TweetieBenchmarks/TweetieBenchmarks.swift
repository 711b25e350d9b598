import Benchmark
import BenchSupport
import Foundation
import TweetieDB
import TweetieSync

// package-benchmark suites: `swift package --allow-writing-to-package-directory benchmark`
// (`make bench`). Sizes for the read and notification suites come from TWEETIE_BENCH_SIZES
// (default "10000,100000"; BenchCompare covers 1,000,000). Each benchmark runs in its own process,
// so each builds its own stores in its setup hook (untimed).

/// State shared by a benchmark's setup, body and teardown.
final class Box<T>: @unchecked Sendable {
    var value: T?
    var unwrapped: T { value! }
}

let benchmarks: @Sendable () -> Void = {
    if let path = ProcessInfo.processInfo.environment[ChildWriter.environmentKey] {
        exit(ChildWriter.run(storePath: path))
    }
    let sizes = (ProcessInfo.processInfo.environment["TWEETIE_BENCH_SIZES"] ?? "10000,100000")
        .split(separator: ",").compactMap { Int($0.replacingOccurrences(of: "_", with: "")) }
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .throughput, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 1000)
    let few = Benchmark.Configuration(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 5)
    let generator = TweetGenerator()

    // 1. Bulk upsert of 100,000 records in one transaction (one iteration = 100k records).
    let bulkN = 100_000
    let bulkTweets = Box<[Tweet]>()
    let bulkPairs = Box<([[UInt8]], [[UInt8]])>()
    let prepareBulk: @Sendable () async throws -> Void = {
        bulkTweets.value = generator.tweets(1..<Int64(bulkN + 1))
        bulkPairs.value = try Suites.encodedPairs(bulkTweets.unwrapped)
    }
    Benchmark("Bulk upsert 100k/TweetieDB add(contentsOf:)", configuration: few) { benchmark in
        for _ in benchmark.scaledIterations {
            let fixture = try TweetieFixture(durability: .full)
            benchmark.startMeasurement()
            try fixture.store.write { tx in try tx.add(contentsOf: bulkTweets.unwrapped, update: .all) }
            benchmark.stopMeasurement()
            fixture.close()
        }
    } setup: { try await prepareBulk() }
    Benchmark("Bulk upsert 100k/GRDB prepared upsert", configuration: few) { benchmark in
        for _ in benchmark.scaledIterations {
            let peer = try GRDBPeer(synchronous: .full)
            benchmark.startMeasurement()
            try peer.upsert(bulkTweets.unwrapped)
            benchmark.stopMeasurement()
            peer.close()
        }
    } setup: { try await prepareBulk() }
    Benchmark("Bulk upsert 100k/raw mdb_put (no indexes)", configuration: few) { benchmark in
        for _ in benchmark.scaledIterations {
            let (keys, values) = bulkPairs.unwrapped
            let path = TemporaryPath.make("raw")
            let raw = try RawStoreHandle(path: path)
            benchmark.startMeasurement()
            try raw.store.putAll(keys: keys, values: values)
            benchmark.stopMeasurement()
            raw.close()
        }
    } setup: { try await prepareBulk() }

    // 2. Small durable commits (one iteration = one one-record transaction).
    typealias CommitTarget = (commit: @Sendable (Tweet) throws -> Void, close: @Sendable () -> Void)
    let preload = 10_000
    /// Registers one small-commit benchmark: `open` (setup) builds a store holding tweets
    /// `1...preload` and returns how to commit one tweet and how to close the store (teardown).
    func smallCommitBenchmark(_ name: String, open: @escaping @Sendable () throws -> CommitTarget) {
        let target = Box<CommitTarget>()
        let nextID = Box<Int64>()
        Benchmark(name, configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 300)) { benchmark in
            for _ in benchmark.scaledIterations {
                let id = nextID.unwrapped
                nextID.value = id + 1
                try target.unwrapped.commit(generator.tweet(id: id))
            }
        } setup: {
            target.value = try open()
            nextID.value = Int64(preload + 1)
        } teardown: { target.value?.close() }
    }
    for durability in StoreConfiguration.Durability.allCases {
        smallCommitBenchmark("Small commit/TweetieDB .\(durability.rawValue)") {
            let fixture = try TweetieFixture(durability: durability)
            try fixture.fill(count: preload)
            return (commit: { tweet in try fixture.store.write { tx in _ = try tx.add(tweet, update: .all) } }, close: { fixture.close() })
        }
    }
    for sync in GRDBPeer.Synchronous.allCases {
        smallCommitBenchmark("Small commit/GRDB WAL synchronous=\(sync.rawValue)") {
            let peer = try GRDBPeer(synchronous: sync)
            try Suites.fill(peer, count: preload)
            return (commit: { tweet in try peer.upsert(CollectionOfOne(tweet)) }, close: { peer.close() })
        }
    }

    // 3. Reads and 4. change notification, per size.
    for n in sizes {
        let label = n >= 1_000_000 ? "\(n / 1_000_000)M" : "\(n / 1000)k"
        let tweetie = Box<TweetieFixture>()
        let grdb = Box<GRDBPeer>()
        let makeTweetie: @Sendable () async throws -> Void = {
            tweetie.value = try TweetieFixture(durability: .full)
            try tweetie.unwrapped.fill(count: n)
        }
        let makeGRDB: @Sendable () async throws -> Void = {
            grdb.value = try GRDBPeer(synchronous: .full)
            try Suites.fill(grdb.unwrapped, count: n)
        }
        let closeAll: @Sendable () async throws -> Void = {
            tweetie.value?.close(); tweetie.value = nil
            grdb.value?.close(); grdb.value = nil
        }
        Benchmark("First page (50)/TweetieDB n=\(label)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try tweetie.unwrapped.store.read { try $0.fetch(Suites.firstPage) })
            }
        } setup: { try await makeTweetie() } teardown: { try await closeAll() }
        Benchmark("First page (50)/GRDB n=\(label)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try grdb.unwrapped.firstPage()) }
        } setup: { try await makeGRDB() } teardown: { try await closeAll() }
        Benchmark("Sorted scan, decoded/TweetieDB n=\(label)", configuration: .init(metrics: metrics, maxDuration: .seconds(20), maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try tweetie.unwrapped.store.read { try $0.fetch(Suites.timeline) })
            }
        } setup: { try await makeTweetie() } teardown: { try await closeAll() }
        Benchmark("Sorted scan, decoded/GRDB n=\(label)", configuration: .init(metrics: metrics, maxDuration: .seconds(20), maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try grdb.unwrapped.timeline()) }
        } setup: { try await makeGRDB() } teardown: { try await closeAll() }

        // One iteration = commit 100 changes, wait for the changeset.
        let live = Box<LiveIDs>()
        let rng = Box<SplitMix64>()
        /// Registers one notification benchmark: `start` (setup, after the live ids are reset)
        /// builds the store and its observer, `apply` commits a batch, `mailbox` is where the
        /// observer delivers, `stop` (teardown) ends the observer and closes the stores.
        func notificationBenchmark(_ name: String, start: @escaping @Sendable () async throws -> Void,
                                   apply: @escaping @Sendable (ChangeBatch) throws -> Void,
                                   mailbox: @escaping @Sendable () -> Mailbox<Delivery>,
                                   stop: @escaping @Sendable () async throws -> Void) {
            Benchmark(name, configuration: .init(metrics: metrics, maxDuration: .seconds(20), maxIterations: 30)) { benchmark in
                for _ in benchmark.scaledIterations {
                    var ids = live.unwrapped, random = rng.unwrapped
                    let batch = ChangeBatch.make(k: 100, live: &ids, generator: generator, rng: &random)
                    live.value = ids; rng.value = random
                    benchmark.startMeasurement()
                    try apply(batch)
                    let delivery = try await mailbox().take(timeout: 120, waitingFor: "\(name): a changeset")
                    precondition(delivery.resultCount == ids.count, "\(name) delivered \(delivery.resultCount) rows, expected \(ids.count)")
                }
            } setup: {
                live.value = LiveIDs(count: n); rng.value = SplitMix64(seed: 99)
                try await start()
            } teardown: { try await stop() }
        }
        let tweetieObserver = Box<TweetieTimelineObserver>()
        notificationBenchmark("Notification k=100/TweetieDB observe n=\(label)", start: {
            try await makeTweetie()
            tweetieObserver.value = try await TweetieTimelineObserver.start(store: tweetie.unwrapped.store, query: Suites.timeline)
        }, apply: { batch in try batch.apply(to: tweetie.unwrapped.store) },
        mailbox: { tweetieObserver.unwrapped.mailbox }, stop: {
            tweetieObserver.value?.stop(); tweetieObserver.value = nil
            try await closeAll()
        })
        let grdbObserver = Box<GRDBTimelineObserver>()
        notificationBenchmark("Notification k=100/GRDB ValueObservation + difference n=\(label)", start: {
            try await makeGRDB()
            grdbObserver.value = try await GRDBTimelineObserver.start(peer: grdb.unwrapped)
        }, apply: { batch in try batch.apply(to: grdb.unwrapped) },
        mailbox: { grdbObserver.unwrapped.mailbox }, stop: {
            grdbObserver.value?.stop(); grdbObserver.value = nil
            try await closeAll()
        })
    }

    // 5. Cross-process: one iteration = ask the child writer for a commit, wait for the changeset.
    let crossFixture = Box<TweetieFixture>()
    let crossObserver = Box<TweetieTimelineObserver>()
    let child = Box<ChildWriter>()
    Benchmark("Cross-process notification/child commit → parent changeset", configuration: .init(metrics: metrics, warmupIterations: 3, maxDuration: .seconds(20), maxIterations: 200)) { benchmark in
        for _ in benchmark.scaledIterations {
            try child.unwrapped.trigger()
            let delivery = try await crossObserver.unwrapped.mailbox.take(timeout: 30, waitingFor: "a cross-process changeset")
            precondition(delivery.stampLatencies.count == 1, "expected one inserted row per child commit")
        }
    } setup: {
        crossFixture.value = try TweetieFixture(durability: .full)
        try crossFixture.unwrapped.fill(count: 1_000)
        crossObserver.value = try await TweetieTimelineObserver.start(store: crossFixture.unwrapped.store, query: Suites.timeline, readStamps: true)
        child.value = try ChildWriter.spawn(storePath: crossFixture.unwrapped.path, viaEnvironment: true)
    } teardown: {
        child.value?.finish()
        crossObserver.value?.stop()
        crossFixture.value?.close()
    }

    // 6. Export and import of 100,000 records (BenchCompare runs 1M). One iteration = the whole file.
    let exportN = 100_000
    let source = Box<TweetieFixture>()
    let sourcePeer = Box<GRDBPeer>()
    let exportDir = Box<String>()
    let prepareExport: @Sendable () async throws -> Void = {
        exportDir.value = TemporaryPath.make("export")
        try FileManager.default.createDirectory(atPath: exportDir.unwrapped, withIntermediateDirectories: true)
        source.value = try TweetieFixture(durability: .full)
        try source.unwrapped.fill(count: exportN)
        sourcePeer.value = try GRDBPeer(synchronous: .full)
        try Suites.fill(sourcePeer.unwrapped, count: exportN)
        _ = try Suites.tweetieExportNDJSON(store: source.unwrapped.store, to: exportDir.unwrapped + "/api.ndjson")
        _ = try Suites.tweetieExport(store: source.unwrapped.store, to: exportDir.unwrapped + "/plain.ndjson")
        _ = try Suites.grdbExport(peer: sourcePeer.unwrapped, to: exportDir.unwrapped + "/grdb.ndjson")
    }
    let cleanExport: @Sendable () async throws -> Void = {
        source.value?.close(); sourcePeer.value?.close()
        if let dir = exportDir.value { try? FileManager.default.removeItem(atPath: dir) }
    }
    /// Registers one suite-6 benchmark: per iteration, `makeTarget` (untimed) gives where the records
    /// go, `transfer` (timed) moves all `exportN` records and returns how many, `close` (untimed) ends.
    func transferBenchmark<Target>(_ name: String, makeTarget: @escaping @Sendable () throws -> Target,
                                   close: @escaping @Sendable (Target) -> Void,
                                   transfer: @escaping @Sendable (Target) throws -> Int) {
        Benchmark(name, configuration: few) { benchmark in
            for _ in benchmark.scaledIterations {
                let target = try makeTarget()
                benchmark.startMeasurement()
                let count = try transfer(target)
                benchmark.stopMeasurement()
                close(target)
                precondition(count == exportN, "\(name): transferred \(count) of \(exportN) records")
            }
        } setup: { try await prepareExport() } teardown: { try await cleanExport() }
    }
    let outputFile: @Sendable () -> String = { exportDir.unwrapped + "/out.ndjson" }
    let keepFile: @Sendable (String) -> Void = { _ in }
    transferBenchmark("Export 100k/TweetieDB exportNDJSON", makeTarget: outputFile, close: keepFile) { path in
        try Suites.tweetieExportNDJSON(store: source.unwrapped.store, to: path)
    }
    transferBenchmark("Export 100k/TweetieDB fetch + JSONEncoder per record", makeTarget: outputFile, close: keepFile) { path in
        try Suites.tweetieExport(store: source.unwrapped.store, to: path)
    }
    transferBenchmark("Export 100k/GRDB cursor + JSONEncoder per record", makeTarget: outputFile, close: keepFile) { path in
        try Suites.grdbExport(peer: sourcePeer.unwrapped, to: path)
    }
    let newStore: @Sendable () throws -> TweetieFixture = { try TweetieFixture(durability: .full) }
    let closeStore: @Sendable (TweetieFixture) -> Void = { $0.close() }
    transferBenchmark("Import 100k/TweetieDB importNDJSON", makeTarget: newStore, close: closeStore) { target in
        try Suites.tweetieImportNDJSON(from: exportDir.unwrapped + "/api.ndjson", into: target.store)
    }
    transferBenchmark("Import 100k/TweetieDB JSONDecoder + add", makeTarget: newStore, close: closeStore) { target in
        try Suites.tweetieImport(from: exportDir.unwrapped + "/plain.ndjson", into: target.store)
    }
    transferBenchmark("Import 100k/GRDB JSONDecoder + upsert", makeTarget: { try GRDBPeer(synchronous: .full) }, close: { $0.close() }) { target in
        try Suites.grdbImport(from: exportDir.unwrapped + "/grdb.ndjson", into: target)
    }
}
