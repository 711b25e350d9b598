import Foundation
import RawLMDB
import TweetieDB
import TweetieSync

// Suite 7: the same records, `Tweet`'s 13 fields, declared as a user of each library declares
// them, written (100k upsert, one transaction) and read back (sorted by `created`, decoded).
extension Suites {
    /// A way of declaring suite 7's record, or the raw-LMDB floor.
    ///
    /// ```swift
    /// for variant in Suites.RecordVariant.allCases { print(variant.label) }
    /// ```
    public enum RecordVariant: String, CaseIterable, Sendable {
        /// `@Record` with `Tweet`'s `@Interned` marks (`MacroTweet`).
        case macro
        /// TweetieSync's `Tweet` itself (`@Record`, its own JSON `Codable`).
        case tweet
        /// `Tweet`'s fields with the hand-written codec `Tweet` had before `@Record`
        /// (`HandCodedTweet`): `Tweet`'s control, measured in the same run.
        case handCoded
        /// `@Record` without `@Interned` (`UninternedMacroTweet`).
        case uninterned
        /// `Record, Codable` (`CodableTweet`): stored through `Codable`.
        case codable
        /// GRDB's `Codable` record (`GRDBCodableTweet`, `FetchableRecord & PersistableRecord`).
        case grdb
        /// Raw `mdb_put` of `Tweet`'s `RecordEncoder` bytes, no indexes (upsert only).
        case raw

        /// Timed upserts per round (the round's figure is their median): 3 for every TweetieDB
        /// variant and raw `mdb_put` (a tenth to a fifth of a second each here), 1 for GRDB (five
        /// seconds).
        ///
        /// One 100k upsert varies by ±15 % from one to the next on this machine (its commit's
        /// `fdatasync` of tens of megabytes alone takes 28–43 ms, now and then 140), so a single
        /// one per round left the ratios of equal-cost variants (`Tweet` against its control, the
        /// `@Record` type against `Tweet`) anywhere in 0.86–1.17× between runs of one binary.
        ///
        /// ```swift
        /// Suites.RecordVariant.tweet.upsertRepeats   // 3
        /// ```
        public var upsertRepeats: Int {
            self == .grdb ? 1 : 3
        }

        /// Timed scans per round (the round's figure is their median): 9 for every TweetieDB
        /// variant, 3 for GRDB (half a second each). `.raw` has no scan.
        ///
        /// One two-thread scan of 100k records takes 25–40 ms here, and single scans vary by up to
        /// ±30 %: the machine's slow phases, and now and then glibc returns the last result's
        /// memory to the kernel and the next scan faults 3,500–4,700 pages back in (seen in about
        /// one timed scan in fourteen). Three per round left the `@Record` type against `Tweet`
        /// anywhere in 0.83–1.24× between runs of one binary.
        ///
        /// ```swift
        /// Suites.RecordVariant.codable.scanPasses   // 9
        /// ```
        public var scanPasses: Int {
            self == .grdb ? 3 : 9
        }

        /// The variant's name in the report.
        ///
        /// ```swift
        /// Suites.RecordVariant.codable.label   // "`Record, Codable` type"
        /// ```
        public var label: String {
            switch self {
            case .macro: "`@Record` type"
            case .tweet: "`Tweet`"
            case .handCoded: "hand-written codec (`Tweet` before `@Record`)"
            case .uninterned: "`@Record` type without `@Interned`"
            case .codable: "`Record, Codable` type"
            case .grdb: "GRDB `Codable` record"
            case .raw: "raw mdb_put (no indexes)"
            }
        }
    }

    /// Suite 7's durations, nanoseconds, one per round in round order (rounds alternate the
    /// variants: see ``recordTypes(n:rounds:)``).
    ///
    /// ```swift
    /// let result = try Suites.recordTypes(n: 100_000, rounds: 5)
    /// let macroUpserts = result.upsert[.macro]!
    /// ```
    public struct RecordTypesResult: Sendable {
        /// Records per round.
        public var n: Int
        /// The upsert of `n` records into a fresh store, one transaction, per variant.
        public var upsert: [RecordVariant: [UInt64]]
        /// The sorted decoded scan of those records, per variant (no `.raw`).
        public var scan: [RecordVariant: [UInt64]]
        /// The CPU time of each upsert on all threads (TweetieDB encodes on a second thread).
        public var upsertCPU: [RecordVariant: [UInt64]]
        /// The CPU time of each timed scan.
        public var scanCPU: [RecordVariant: [UInt64]]
    }

    /// Measures suite 7: an untimed warm-up round, then `rounds` rounds. A round has three
    /// passes of upserts: in each, every variant in turn (in an order shuffled afresh, seeded, so
    /// that no variant keeps the same neighbours) upserts the same `n` records into a fresh store
    /// in one transaction (durability `.full`; GRDB WAL synchronous=FULL), untimed into one store
    /// and then timed into another (GRDB only timed, and in the first pass only: see
    /// ``RecordVariant/upsertRepeats``). The store of a variant's last timed upsert stays open.
    /// Then the scans, sorted (`created` newest first) and decoded, each one's count and order
    /// checked, in passes, each pass every variant once in an order shuffled afresh: an untimed
    /// scan of the variant's store, then a timed one. Every variant takes
    /// part in the first three passes, all but GRDB in six more
    /// (``RecordVariant/scanPasses``). A variant's figure for the round is the median of its
    /// timed upserts, and of its timed scans.
    ///
    /// The scans are interleaved because this machine switches between a fast and a slow phase
    /// every few seconds (the same scan takes 60 or 100 ms; see docs/benchmark-findings.md, "Reading
    /// the figures"): a pass takes
    /// about a second, so the variants compared within a pass ran in the same phase far
    /// more often than when each variant's scans followed its own upsert (and GRDB's six-second
    /// upsert came between them). The untimed run before each timed one, and the shuffled
    /// orders, keep what one variant leaves in the heap (GRDB's and Codable's scans free far more
    /// than TweetieDB's) from falling on the same neighbour every time.
    ///
    /// ```swift
    /// let result = try Suites.recordTypes(n: 100_000, rounds: 5)
    /// ```
    public static func recordTypes(n: Int, rounds: Int) throws -> RecordTypesResult {
        let tweets = TweetGenerator().tweets(1..<Int64(n + 1))
        let macro = tweets.map(MacroTweet.init), uninterned = tweets.map(UninternedMacroTweet.init)
        let codable = tweets.map(CodableTweet.init), grdb = tweets.map(GRDBCodableTweet.init)
        let handCoded = tweets.map(HandCodedTweet.init)
        let (keys, values) = try encodedPairs(tweets)
        var upsert: [RecordVariant: [UInt64]] = [:], scan: [RecordVariant: [UInt64]] = [:]
        var upsertCPU: [RecordVariant: [UInt64]] = [:], scanCPU: [RecordVariant: [UInt64]] = [:]
        let variants = RecordVariant.allCases
        // Round -1 is an untimed warm-up (heap, page cache, the encoding thread). The upserts of a
        // round, and each pass of its scans, run in an order shuffled afresh (seeded, so every run
        // uses the same orders): no variant has the same neighbours throughout. (A rotation,
        // reversed every other round, kept neighbours together: the `@Record` type's scan came
        // right after GRDB's in every forward round and `Tweet`'s never did.)
        var shuffle = SplitMix64(seed: 7)
        for round in -1..<rounds {
            var open: [(variant: RecordVariant, stored: StoredVariant)] = []
            defer { for entry in open { entry.stored.close() } }
            // Upsert passes, like the scans' below: every variant once per pass, in an order
            // shuffled afresh, so that each variant's timed upserts are spread over the round and
            // not taken back to back in one state of the disk (`upsertRepeats`: GRDB in the first
            // pass only). The store of a variant's last timed upsert stays open for the scans.
            var upsertRuns: [RecordVariant: [(ns: UInt64, cpu: UInt64)]] = [:]
            let upsertPasses = variants.map(\.upsertRepeats).max() ?? 0
            for pass in 0..<upsertPasses {
                for variant in variants.shuffled(using: &shuffle) where pass < variant.upsertRepeats {
                    // An untimed upsert of the same variant first (GRDB's takes seconds and is left
                    // out): the timed one then starts from its own variant's heap, not from what the
                    // variant before it freed or glibc trimmed (LMDB's dirty pages are malloc'd, so a
                    // trimmed heap costs the next writer tens of thousands of page faults).
                    switch variant {
                    case .macro: try warmUpsert(macro)
                    case .tweet: try warmUpsert(tweets)
                    case .handCoded: try warmUpsert(handCoded)
                    case .uninterned: try warmUpsert(uninterned)
                    case .codable: try warmUpsert(codable)
                    case .grdb: break
                    case .raw: _ = try rawBulk(keys: keys, values: values)
                    }
                    var stores: [(variant: RecordVariant, stored: StoredVariant)] = []
                    let run: (UInt64, UInt64)
                    switch variant {
                    case .macro: run = try upsertRound(macro, into: &stores, as: variant)
                    case .tweet: run = try upsertRound(tweets, into: &stores, as: variant)
                    case .handCoded: run = try upsertRound(handCoded, into: &stores, as: variant)
                    case .uninterned: run = try upsertRound(uninterned, into: &stores, as: variant)
                    case .codable: run = try upsertRound(codable, into: &stores, as: variant)
                    case .grdb: run = try grdbUpsertRound(grdb, into: &stores)
                    case .raw:
                        let bulk = try rawBulk(keys: keys, values: values)
                        run = (bulk.ns, bulk.cpu)
                    }
                    upsertRuns[variant, default: []].append((run.0, run.1))
                    if pass == variant.upsertRepeats - 1 { open += stores } else { for entry in stores { entry.stored.close() } }
                }
            }
            if round >= 0 { appendMedians(of: upsertRuns, to: &upsert, cpu: &upsertCPU) }
            // Each timed scan right after an untimed one of the same store: whatever the variant
            // before left in the heap (a GRDB or Codable scan frees far more than a TweetieDB
            // one, and glibc may trim it), the timed scan starts from its own variant's release.
            var runs: [RecordVariant: [(ns: UInt64, cpu: UInt64)]] = [:]
            // Three passes over every variant, then six more without GRDB (a TweetieDB scan takes
            // tens of milliseconds, GRDB's half a second): see `scanPasses`.
            let passes = variants.map(\.scanPasses).max() ?? 0
            for pass in 0..<passes {
                for entry in open.shuffled(using: &shuffle) where pass < entry.variant.scanPasses {
                    _ = try entry.stored.scan()
                    runs[entry.variant, default: []].append(try entry.stored.scan())
                }
            }
            if round >= 0 { appendMedians(of: runs, to: &scan, cpu: &scanCPU) }
        }
        return RecordTypesResult(n: n, upsert: upsert, scan: scan, upsertCPU: upsertCPU, scanCPU: scanCPU)
    }

    /// Appends each variant's round figure, the run of median elapsed time among its timed runs
    /// (its elapsed and CPU time), to `figures` and `cpu`.
    ///
    /// ```swift
    /// appendMedians(of: runs, to: &scan, cpu: &scanCPU)
    /// ```
    static func appendMedians(of runs: [RecordVariant: [(ns: UInt64, cpu: UInt64)]],
                              to figures: inout [RecordVariant: [UInt64]], cpu: inout [RecordVariant: [UInt64]]) {
        for (variant, timed) in runs {
            let median = timed.sorted { $0.ns < $1.ns }[timed.count / 2]
            figures[variant, default: []].append(median.ns)
            cpu[variant, default: []].append(median.cpu)
        }
    }

    /// A variant's store, filled and still open, for the round's interleaved scans.
    ///
    /// ```swift
    /// let (ns, cpu) = try stored.scan()
    /// stored.close()
    /// ```
    struct StoredVariant {
        /// One timed scan (elapsed and CPU nanoseconds), its result checked and released after
        /// the clock stops.
        let scan: () throws -> (ns: UInt64, cpu: UInt64)
        /// Closes the store and removes its files.
        let close: () -> Void
    }

    /// An untimed ``upsertRound(_:into:as:)``: the same write into a fresh store, closed and
    /// removed at once.
    ///
    /// ```swift
    /// try Suites.warmUpsert(tweets)
    /// ```
    static func warmUpsert<R: Record & BenchRecord>(_ records: [R]) throws {
        let path = TemporaryPath.make("records-warm")
        let store = try Store.open(at: path, configuration: TweetieFixture.configuration(durability: .full), collections: [R.self])
        defer { store.close(); try? FileManager.default.removeItem(atPath: path) }
        try store.write { tx in try tx.add(contentsOf: records, update: .all) }
    }

    /// One TweetieDB record type's upsert: all records in one transaction into a fresh store,
    /// timed (elapsed and CPU nanoseconds); the store stays open in `open` for the scans.
    ///
    /// ```swift
    /// let (ns, cpu) = try Suites.upsertRound(tweets, into: &open, as: .tweet)
    /// ```
    static func upsertRound<R: Record & BenchRecord>(_ records: [R], into open: inout [(variant: RecordVariant, stored: StoredVariant)],
                                                     as variant: RecordVariant) throws -> (UInt64, UInt64) {
        let path = TemporaryPath.make("records")
        let store = try Store.open(at: path, configuration: TweetieFixture.configuration(durability: .full), collections: [R.self])
        let close = { store.close(); try? FileManager.default.removeItem(atPath: path) }
        let times: (UInt64, UInt64)
        do {
            let (_, upsertNs, _, upsertCPU) = try PageFaults.timing { try store.write { tx in try tx.add(contentsOf: records, update: .all) } }
            times = (upsertNs, upsertCPU)
        } catch {
            close()
            throw error
        }
        let query = Query<R>().sorted(byIndex: "created")
        open.append((variant, StoredVariant(scan: {
            try timedScan(of: "\(R.self)", count: records.count) { try store.read { try $0.fetch(query) } }
        }, close: close)))
        return times
    }

    /// The same for the GRDB `Codable` record, in a fresh GRDB peer.
    ///
    /// ```swift
    /// let (ns, cpu) = try Suites.grdbUpsertRound(tweets.map(GRDBCodableTweet.init), into: &open)
    /// ```
    static func grdbUpsertRound(_ records: [GRDBCodableTweet], into open: inout [(variant: RecordVariant, stored: StoredVariant)]) throws -> (UInt64, UInt64) {
        let peer = try GRDBPeer(synchronous: .full)
        let times: (UInt64, UInt64)
        do {
            let (_, upsertNs, _, upsertCPU) = try PageFaults.timing { try peer.upsertRecords(records) }
            times = (upsertNs, upsertCPU)
        } catch {
            peer.close()
            throw error
        }
        open.append((.grdb, StoredVariant(scan: {
            try timedScan(of: "GRDBCodableTweet", count: records.count) { try peer.recordTimeline() }
        }, close: { peer.close() })))
        return times
    }

    /// Runs `scan` once, timed, checks that it returned `count` records with ids `count` down
    /// to 1 (newest first: `created` grows with the id), and returns its elapsed and CPU
    /// nanoseconds; the result is released after the clock stops.
    ///
    /// ```swift
    /// let (ns, cpu) = try Suites.timedScan(of: "Tweet", count: n) { try store.read { try $0.fetch(Suites.timeline) } }
    /// ```
    static func timedScan<R: BenchRecord>(of name: String, count: Int, _ scan: () throws -> [R]) throws -> (ns: UInt64, cpu: UInt64) {
        let (records, ns, _, cpu) = try PageFaults.timing(scan)
        guard records.count == count, records.first?.id == Int64(count), records.last?.id == 1 else {
            throw SuiteError("suite 7: the sorted scan of \(name) returned \(records.count) records of \(count), ids \(records.first?.id ?? 0)…\(records.last?.id ?? 0), expected \(count)…1")
        }
        return (ns, cpu)
    }
}

extension Tweet: BenchRecord {
    init(_ tweet: Tweet) { self = tweet }
}
