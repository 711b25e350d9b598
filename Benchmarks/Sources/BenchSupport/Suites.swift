import Foundation
import TweetieDB
import TweetieSync
import RawLMDB

/// The measurements shared by `BenchCompare` and the package-benchmark suites.
///
/// ```swift
/// let bulk = try Suites.bulkUpsert(n: 100_000, repetitions: 3)
/// print(bulk.tweetie, bulk.grdb, bulk.raw)
/// ```
public enum Suites {
    /// The observed timeline query.
    ///
    /// ```swift
    /// store.observe(Suites.timeline)
    /// ```
    public static let timeline = Query<Tweet>().sorted(by: Tweet.byCreated)
    /// The first page of the timeline.
    ///
    /// ```swift
    /// try store.read { try $0.fetch(Suites.firstPage) }
    /// ```
    public static let firstPage = Query<Tweet>().sorted(by: Tweet.byCreated).limit(50)

    /// Runs `body` `repetitions` times (after `warmup` untimed runs) and returns the durations.
    ///
    /// ```swift
    /// let stats = try Suites.measure(repetitions: 20) { _ = try peer.firstPage() }
    /// ```
    public static func measure(repetitions: Int, warmup: Int = 1, _ body: () throws -> Void) rethrows -> LatencyStats {
        try measure(repetitions: repetitions, warmup: warmup, keeping: body)
    }

    /// Like ``measure(repetitions:warmup:_:)``, but each run's result is released after the clock
    /// stops: a scan's time is that of producing its records, not of freeing them afterwards.
    ///
    /// ```swift
    /// let stats = try Suites.measure(repetitions: 5, keeping: { try store.read { try $0.fetch(Suites.timeline) } })
    /// ```
    public static func measure<T>(repetitions: Int, warmup: Int = 1, keeping body: () throws -> T) rethrows -> LatencyStats {
        for _ in 0..<warmup { _ = try body() }
        var samples: [UInt64] = []
        for _ in 0..<repetitions {
            let start = Nanoseconds.monotonic()
            let result = try body()
            samples.append(Nanoseconds.monotonic() - start)
            withExtendedLifetime(result) {}
        }
        return LatencyStats(samples)
    }

    // MARK: 1. Bulk upsert

    /// Median durations of one-transaction bulk upserts of the same `n` records into fresh databases.
    ///
    /// ```swift
    /// let result = try Suites.bulkUpsert(n: 100_000, repetitions: 3)
    /// ```
    public struct BulkResult: Sendable {
        /// Records per run.
        public var n: Int
        /// TweetieDB `add(contentsOf:update: .all)` (encode + indexes + change log), durability `.full`.
        public var tweetie: LatencyStats
        /// GRDB prepared upsert, WAL, synchronous FULL.
        public var grdb: LatencyStats
        /// Raw `mdb_put` of pre-encoded bytes, no indexes.
        public var raw: LatencyStats
        /// Raw `mdb_put` of the same bytes plus the two index entries `Tweet.indexes` defines:
        /// three puts per record, LMDB's share of the store's upsert (no encoding, no change log).
        public var rawIndexed: LatencyStats
        /// Median minor page faults per timed run, in the order tweetie, GRDB, raw, raw indexed
        /// (see ``PageFaults``).
        public var medianFaults: [Int]
        /// Median CPU time per timed run on all threads (nanoseconds), in the same order.
        public var medianCPU: [UInt64]
    }

    /// One timed run: its duration and the minor page faults it caused.
    ///
    /// ```swift
    /// let run = try Suites.tweetieBulk(tweets)
    /// print(run.ns, run.faults)
    /// ```
    public struct Run: Sendable {
        /// Elapsed nanoseconds.
        public var ns: UInt64
        /// Minor page faults during the run.
        public var faults: Int
        /// CPU time of the run on all threads, in nanoseconds.
        public var cpu: UInt64
    }

    /// Measures suite 1; see ``BulkResult``.
    ///
    /// ```swift
    /// let result = try Suites.bulkUpsert(n: 100_000, repetitions: 3)
    /// ```
    public static func bulkUpsert(n: Int, repetitions: Int) throws -> BulkResult {
        let tweets = TweetGenerator().tweets(1..<Int64(n + 1))
        let (keys, values) = try encodedPairs(tweets)
        let entries = indexEntries(tweets, keys: keys)
        var runs: [[Run]] = [[], [], [], []]
        for _ in 0..<repetitions {
            runs[0].append(try tweetieBulk(tweets))
            runs[1].append(try grdbBulk(tweets))
            runs[2].append(try rawBulk(keys: keys, values: values))
            runs[3].append(try rawBulk(keys: keys, values: values, indexEntries: entries))
        }
        let stats = runs.map { LatencyStats($0.map(\.ns)) }
        let faults = runs.map { peer in peer.map(\.faults).sorted()[peer.count / 2] }
        let cpu = runs.map { peer in peer.map(\.cpu).sorted()[peer.count / 2] }
        return BulkResult(n: n, tweetie: stats[0], grdb: stats[1], raw: stats[2], rawIndexed: stats[3], medianFaults: faults, medianCPU: cpu)
    }

    /// The LMDB keys of the entries of `Tweet.indexes` (`created` newest first; `author` =
    /// lowercased username, then newest first), each followed by the primary key, as the store
    /// writes them for a non-unique index.
    ///
    /// ```swift
    /// let entries = Suites.indexEntries(tweets, keys: keys)   // [created, author]
    /// ```
    public static func indexEntries(_ tweets: [Tweet], keys: [[UInt8]]) -> [[[UInt8]]] {
        var created: [[UInt8]] = [], author: [[UInt8]] = []
        created.reserveCapacity(tweets.count)
        author.reserveCapacity(tweets.count)
        for (tweet, key) in zip(tweets, keys) {
            var byDate = KeyEncoder()
            byDate.append(tweet.created, descending: true)
            created.append(byDate.bytes + key)
            var byAuthor = KeyEncoder()
            byAuthor.append(tweet.username.lowercased())
            byAuthor.append(tweet.created, descending: true)
            author.append(byAuthor.bytes + key)
        }
        return [created, author]
    }

    /// The raw-LMDB input: big-endian ids and `RecordEncoder` bytes.
    ///
    /// ```swift
    /// let (keys, values) = try Suites.encodedPairs(tweets)
    /// ```
    public static func encodedPairs(_ tweets: [Tweet]) throws -> ([[UInt8]], [[UInt8]]) {
        let encoder = RecordEncoder()
        let keys = tweets.map { tweet in withUnsafeBytes(of: UInt64(bitPattern: tweet.id).bigEndian) { Array($0) } }
        let values = try tweets.map { try encoder.encode($0) }
        return (keys, values)
    }

    /// One timed TweetieDB bulk upsert into a fresh store (store creation and removal untimed).
    ///
    /// ```swift
    /// let run = try Suites.tweetieBulk(tweets)
    /// ```
    public static func tweetieBulk(_ tweets: [Tweet]) throws -> Run {
        let fixture = try TweetieFixture(durability: .full)
        defer { fixture.close() }
        let (_, ns, faults, cpu) = try PageFaults.timing { try fixture.store.write { tx in try tx.add(contentsOf: tweets, update: .all) } }
        return Run(ns: ns, faults: faults, cpu: cpu)
    }

    /// One timed GRDB bulk upsert into a fresh database.
    ///
    /// ```swift
    /// let run = try Suites.grdbBulk(tweets)
    /// ```
    public static func grdbBulk(_ tweets: [Tweet]) throws -> Run {
        let peer = try GRDBPeer(synchronous: .full)
        defer { peer.close() }
        let (_, ns, faults, cpu) = try PageFaults.timing { try peer.upsert(tweets) }
        return Run(ns: ns, faults: faults, cpu: cpu)
    }

    /// One timed raw `mdb_put` bulk load into a fresh environment.
    ///
    /// ```swift
    /// let run = try Suites.rawBulk(keys: keys, values: values)
    /// ```
    public static func rawBulk(keys: [[UInt8]], values: [[UInt8]]) throws -> Run {
        let path = TemporaryPath.make("raw")
        let raw = try RawLMDBStore(path: path, mapSize: 16 << 30)
        defer { raw.close(); try? FileManager.default.removeItem(atPath: path) }
        let (_, ns, faults, cpu) = try PageFaults.timing { try raw.putAll(keys: keys, values: values) }
        return Run(ns: ns, faults: faults, cpu: cpu)
    }

    /// One timed raw bulk load of the records and their index entries (see ``BulkResult/rawIndexed``).
    ///
    /// ```swift
    /// let run = try Suites.rawBulk(keys: keys, values: values, indexEntries: Suites.indexEntries(tweets, keys: keys))
    /// ```
    public static func rawBulk(keys: [[UInt8]], values: [[UInt8]], indexEntries: [[[UInt8]]]) throws -> Run {
        let path = TemporaryPath.make("raw-indexed")
        let raw = try RawLMDBStore(path: path, mapSize: 16 << 30, indexes: indexEntries.count)
        defer { raw.close(); try? FileManager.default.removeItem(atPath: path) }
        let (_, ns, faults, cpu) = try PageFaults.timing { try raw.putAll(keys: keys, values: values, indexEntries: indexEntries) }
        return Run(ns: ns, faults: faults, cpu: cpu)
    }

    // MARK: 2. Small durable commits

    /// Commit latencies of one-record transactions on a store preloaded with `preload` records.
    ///
    /// ```swift
    /// let stats = try Suites.tweetieSmallCommits(durability: .full, commits: 200)
    /// ```
    public static func tweetieSmallCommits(durability: StoreConfiguration.Durability, commits: Int, preload: Int = 10_000) throws -> LatencyStats {
        let fixture = try TweetieFixture(durability: durability)
        defer { fixture.close() }
        try fixture.fill(count: preload)
        var id = Int64(preload + 1)
        return try measure(repetitions: commits, warmup: 3) {
            let tweet = fixture.generator.tweet(id: id)
            id += 1
            try fixture.store.write { tx in try tx.add(tweet, update: .all) }
        }
    }

    /// GRDB commit latencies of one-record transactions (WAL, the given `synchronous`).
    ///
    /// ```swift
    /// let stats = try Suites.grdbSmallCommits(synchronous: .normal, commits: 200)
    /// ```
    public static func grdbSmallCommits(synchronous: GRDBPeer.Synchronous, commits: Int, preload: Int = 10_000) throws -> LatencyStats {
        let peer = try GRDBPeer(synchronous: synchronous)
        defer { peer.close() }
        let generator = TweetGenerator()
        try fill(peer, count: preload)
        var id = Int64(preload + 1)
        return try measure(repetitions: commits, warmup: 3) {
            let tweet = generator.tweet(id: id)
            id += 1
            try peer.upsert(CollectionOfOne(tweet))
        }
    }

    // MARK: 4. Change notification

    /// Commit → changeset-delivered latencies of an observed sorted timeline under `commits`
    /// commits of `k` changes each. `live` must describe the store's ids and is updated.
    ///
    /// ```swift
    /// var live = LiveIDs(count: n)
    /// let stats = try await Suites.tweetieNotification(store: fixture.store, live: &live, commits: 30)
    /// ```
    public static func tweetieNotification(store: Store, live: inout LiveIDs, commits: Int, k: Int = 100, seed: UInt64 = 99) async throws -> NotificationLatencies {
        let observer = try await TweetieTimelineObserver.start(store: store, query: timeline)
        defer { observer.stop() }
        return try await notificationLatencies(of: "TweetieDB", live: &live, commits: commits, k: k, seed: seed, timeout: 120,
                                               mailbox: observer.mailbox) { batch in try batch.apply(to: store) }
    }

    /// The same for GRDB: a `ValueObservation` of the full sorted timeline plus `difference(from:)`.
    ///
    /// ```swift
    /// let stats = try await Suites.grdbNotification(peer: peer, live: &live, commits: 10)
    /// ```
    public static func grdbNotification(peer: GRDBPeer, live: inout LiveIDs, commits: Int, k: Int = 100, seed: UInt64 = 99) async throws -> NotificationLatencies {
        let observer = try await GRDBTimelineObserver.start(peer: peer)
        defer { observer.stop() }
        return try await notificationLatencies(of: "GRDB", live: &live, commits: commits, k: k, seed: seed, timeout: 300,
                                               mailbox: observer.mailbox) { batch in try batch.apply(to: peer) }
    }

    /// Suite 4's figures for one peer: the whole latency, and its two parts.
    ///
    /// ```swift
    /// print(stats.total.p50, stats.write.p50, stats.afterWrite.p50)
    /// ```
    public struct NotificationLatencies: Sendable {
        /// Just before the write → the consumer holds the changeset (the suite's figure).
        public var total: LatencyStats
        /// The write call alone: the commit, with its syncs.
        public var write: LatencyStats
        /// The write call returned → the consumer holds the changeset; 0 when the changeset
        /// arrived first (an observer is woken as soon as the commit is visible, while the
        /// writer's thread is still returning).
        public var afterWrite: LatencyStats
    }

    /// The loop both notification measurements share: `commits` times, draw a ``ChangeBatch`` of
    /// `k` changes, `apply` it, wait (at most `timeout` s) for the delivery in `mailbox`, check its
    /// row count against `live`, and keep the latency from just before `apply`, and when `apply`
    /// returned.
    ///
    /// ```swift
    /// let stats = try await Suites.notificationLatencies(of: "TweetieDB", live: &live, commits: 30, mailbox: observer.mailbox) {
    ///     try $0.apply(to: store)
    /// }
    /// ```
    public static func notificationLatencies(of name: String, live: inout LiveIDs, commits: Int, k: Int = 100, seed: UInt64 = 99,
                                             timeout: Double = 120, mailbox: Mailbox<Delivery>,
                                             apply: (ChangeBatch) throws -> Void) async throws -> NotificationLatencies {
        var rng = SplitMix64(seed: seed)
        let generator = TweetGenerator()
        var samples: [UInt64] = [], writes: [UInt64] = [], afterWrites: [UInt64] = []
        for _ in 0..<commits {
            let batch = ChangeBatch.make(k: k, live: &live, generator: generator, rng: &rng)
            let start = Nanoseconds.monotonic()
            try apply(batch)
            let written = Nanoseconds.monotonic()
            let delivery = try await mailbox.take(timeout: timeout, waitingFor: "a \(name) changeset")
            guard delivery.resultCount == live.count else {
                throw SuiteError("\(name) delivered \(delivery.resultCount) rows, the store holds \(live.count)")
            }
            samples.append(delivery.at - start)
            writes.append(written - start)
            afterWrites.append(delivery.at > written ? delivery.at - written : 0)
        }
        return NotificationLatencies(total: LatencyStats(samples), write: LatencyStats(writes), afterWrite: LatencyStats(afterWrites))
    }

    // MARK: 5. Cross-process notification

    /// Cross-process figures: `stamp` is commit (child's CLOCK_REALTIME before the commit) →
    /// changeset in the parent's consumer; `trigger` is parent's request → delivery.
    ///
    /// ```swift
    /// let result = try await Suites.crossProcess(commits: 200)
    /// ```
    public struct CrossProcessResult: Sendable {
        /// Commit → delivery, from the stamp in the record.
        public var stamp: LatencyStats
        /// Trigger written to the child's stdin → delivery (includes the child's wake-up).
        public var trigger: LatencyStats
    }

    /// Measures suite 5 with a child writer process.
    ///
    /// ```swift
    /// let result = try await Suites.crossProcess(commits: 200)
    /// ```
    public static func crossProcess(commits: Int, preload: Int = 1_000, viaEnvironment: Bool = false) async throws -> CrossProcessResult {
        let fixture = try TweetieFixture(durability: .full)
        defer { fixture.close() }
        try fixture.fill(count: preload)
        let observer = try await TweetieTimelineObserver.start(store: fixture.store, query: timeline, readStamps: true)
        defer { observer.stop() }
        let child = try ChildWriter.spawn(storePath: fixture.path, viaEnvironment: viaEnvironment)
        var stamps: [UInt64] = [], triggers: [UInt64] = []
        do {
            for i in 0..<(commits + 3) {
                let start = Nanoseconds.monotonic()
                try child.trigger()
                let delivery = try await observer.mailbox.take(timeout: 30, waitingFor: "a cross-process changeset")
                guard delivery.stampLatencies.count == 1 else {
                    throw SuiteError("expected one inserted row per child commit, got \(delivery.stampLatencies.count)")
                }
                if i >= 3 {  // the first commits warm up the child's store
                    stamps.append(delivery.stampLatencies[0])
                    triggers.append(delivery.at - start)
                }
            }
        } catch {
            child.finish()
            throw error
        }
        let status = child.finish()
        guard status == 0 else { throw SuiteError("the child writer exited with status \(status)") }
        return CrossProcessResult(stamp: LatencyStats(stamps), trigger: LatencyStats(triggers))
    }

    // MARK: 6. Export and import

    /// Writes every record as one JSON line (one `JSONEncoder.encode` per record); returns the count.
    ///
    /// ```swift
    /// let count = try Suites.tweetieExport(store: fixture.store, to: "/tmp/tweets.ndjson")
    /// ```
    public static func tweetieExport(store: Store, to path: String) throws -> Int {
        try writeJSONLines(to: path) { emit in
            try store.read { tx in
                try tx.forEach(Query<Tweet>()) { tweet in
                    try emit(tweet)
                    return true
                }
            }
        }
    }

    /// Reads an NDJSON file, decodes each line and adds it, in one transaction; returns the count.
    ///
    /// ```swift
    /// let count = try Suites.tweetieImport(from: "/tmp/tweets.ndjson", into: fixture.store)
    /// ```
    public static func tweetieImport(from path: String, into store: Store) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try store.write { tx in
            try forEachJSONLine(in: data) { tweet in try tx.add(tweet, update: .all) }
        }
    }

    /// Creates the file at `path` and writes one `JSONEncoder` line for each tweet `produce` passes
    /// to its `emit` argument; returns how many were written. Both exports (TweetieDB and GRDB) use it.
    ///
    /// ```swift
    /// let count = try Suites.writeJSONLines(to: path) { emit in for tweet in tweets { try emit(tweet) } }
    /// ```
    public static func writeJSONLines(to path: String, _ produce: (_ emit: (Tweet) throws -> Void) throws -> Void) throws -> Int {
        let writer = try LineWriter(path: path)
        let encoder = JSONEncoder()
        var count = 0
        try produce { tweet in
            writer.append(try encoder.encode(tweet))
            count += 1
        }
        try writer.close()
        return count
    }

    /// Decodes each non-empty line of `data` as a tweet (one `JSONDecoder.decode` per line) and
    /// passes it to `body`; returns how many lines were decoded. Both plain imports use it.
    ///
    /// ```swift
    /// let count = try Suites.forEachJSONLine(in: data) { tweet in print(tweet.id) }
    /// ```
    public static func forEachJSONLine(in data: Data, _ body: (Tweet) throws -> Void) throws -> Int {
        let decoder = JSONDecoder()
        var count = 0
        try LineWriter.forEachLine(in: data) { line in
            try body(try decoder.decode(Tweet.self, from: line))
            count += 1
        }
        return count
    }

    /// Exports with the store's own `exportNDJSON` (a header line, then one line per record) to
    /// the file at `path`; returns the number of records.
    ///
    /// ```swift
    /// let count = try Suites.tweetieExportNDJSON(store: fixture.store, to: "/tmp/export.ndjson")
    /// ```
    public static func tweetieExportNDJSON(store: Store, to path: String) throws -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SuiteError("cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        return try store.exportNDJSON { chunk in
            var offset = 0
            while offset < chunk.count {
                let written = write(fd, chunk.baseAddress! + offset, chunk.count - offset)
                guard written > 0 else { throw SuiteError("write to \(path) failed: errno \(errno)") }
                offset += written
            }
        }
    }

    /// Imports a file written by ``tweetieExportNDJSON(store:to:)`` with the store's own
    /// `importNDJSON` (mode `.merge`, one transaction); returns the number of records.
    ///
    /// ```swift
    /// let count = try Suites.tweetieImportNDJSON(from: "/tmp/export.ndjson", into: fixture.store)
    /// ```
    public static func tweetieImportNDJSON(from path: String, into store: Store) throws -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SuiteError("cannot open \(path): errno \(errno)") }
        defer { close(fd) }
        return try store.importNDJSON(from: fd, mode: .merge).records
    }

    /// GRDB export: a cursor over the table, one `JSONEncoder.encode` per record.
    ///
    /// ```swift
    /// let count = try Suites.grdbExport(peer: peer, to: "/tmp/tweets.ndjson")
    /// ```
    public static func grdbExport(peer: GRDBPeer, to path: String) throws -> Int {
        try writeJSONLines(to: path) { emit in
            _ = try peer.pool.read { db in try GRDBPeer.forEachTweet(db, sql: "SELECT * FROM tweets", emit) }
        }
    }

    /// GRDB import: decode each line and upsert it with the prepared statement, in one transaction.
    ///
    /// ```swift
    /// let count = try Suites.grdbImport(from: "/tmp/tweets.ndjson", into: peer)
    /// ```
    public static func grdbImport(from path: String, into peer: GRDBPeer) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try peer.pool.write { db in
            let statement = try db.cachedStatement(sql: GRDBPeer.upsertSQL)
            return try forEachJSONLine(in: data) { tweet in try statement.execute(arguments: GRDBPeer.arguments(of: tweet)) }
        }
    }

    /// Fills the GRDB peer with tweets `1...count` in transactions of `batch`.
    ///
    /// ```swift
    /// try Suites.fill(peer, count: 100_000)
    /// ```
    public static func fill(_ peer: GRDBPeer, count: Int, batch: Int = 100_000) throws {
        let generator = TweetGenerator()
        var start = 0
        while start < count {
            let end = min(count, start + batch)
            try peer.upsert(generator.tweets(Int64(start + 1)..<Int64(end + 1)))
            start = end
        }
    }
}

/// A benchmark found a wrong result.
///
/// ```swift
/// throw SuiteError("expected 10 rows, got 9")
/// ```
public struct SuiteError: Error, CustomStringConvertible {
    /// What went wrong.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public let description: String
    /// An error saying `description`.
    ///
    /// ```swift
    /// SuiteError("the child writer failed")
    /// ```
    public init(_ description: String) { self.description = description }
}
