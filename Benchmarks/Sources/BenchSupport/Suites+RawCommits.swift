import Foundation
import RawLMDB
import TweetieDB
import TweetieSync

extension Suites {
    /// Commit latencies of one-record transactions through LMDB's C API alone, with LMDB's
    /// default durability (the pages synced, then the meta page through its `O_DSYNC`
    /// descriptor, as TweetieDB's `.full`), on an environment preloaded with `preload` records.
    ///
    /// `trees: 1` puts the record only. `trees: 5` also puts what a TweetieDB commit of one
    /// `Tweet` writes beside it, each in its own B-tree: the two index entries, a change-log
    /// entry under the next sequence and the log's last-sequence key. What the store adds to
    /// the 5-tree figure is its own cost; what the 5-tree figure adds to the floor is LMDB's.
    /// `metaSync: false` opens the environment with `MDB_NOMETASYNC` (as `.noMetaSync`).
    ///
    /// ```swift
    /// let stats = try Suites.rawSmallCommits(trees: 5, commits: 300)
    /// ```
    public static func rawSmallCommits(trees: Int, commits: Int, preload: Int = 10_000, metaSync: Bool = true) throws -> LatencyStats {
        precondition(trees == 1 || trees == 5, "rawSmallCommits: trees is 1 or 5")
        let path = TemporaryPath.make("raw-commits")
        let raw = try RawLMDBStore(path: path, mapSize: 16 << 30, metaSync: metaSync, indexes: trees - 1)
        defer { raw.close(); try? FileManager.default.removeItem(atPath: path) }
        let generator = TweetGenerator()
        let encoder = RecordEncoder()
        var sequence: UInt64 = 0
        func puts(_ tweet: Tweet) throws -> [(database: Int, key: [UInt8], value: [UInt8])] {
            let key = withUnsafeBytes(of: UInt64(bitPattern: tweet.id).bigEndian) { Array($0) }
            var puts: [(database: Int, key: [UInt8], value: [UInt8])] = [(0, key, try encoder.encode(tweet))]
            guard trees == 5 else { return puts }
            let entries = indexEntries([tweet], keys: [key])
            sequence += 1
            let sequenceKey = withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
            // A log entry of one inserted key, about the size the store writes: version, one
            // collection named "tweets", one change.
            let logEntry: [UInt8] = [1, 1, 6] + Array("tweets".utf8) + [0, 1, 0, 8] + key
            puts += [(1, entries[0][0], key), (2, entries[1][0], key), (3, sequenceKey, logEntry), (4, Array("changes/last".utf8), sequenceKey)]
            return puts
        }
        // The preload in transactions of 1,000 records, as a store filled in batches logs one entry per batch.
        var next: Int64 = 1
        while next <= Int64(preload) {
            let end = min(Int64(preload) + 1, next + 1_000)
            var batch: [(database: Int, key: [UInt8], value: [UInt8])] = []
            for id in next..<end { batch += try puts(generator.tweet(id: id)) }
            try raw.commit(batch)
            next = end
        }
        var id = Int64(preload + 1)
        return try measure(repetitions: commits, warmup: 3) {
            let records = try puts(generator.tweet(id: id))
            id += 1
            try raw.commit(records)
        }
    }
}
