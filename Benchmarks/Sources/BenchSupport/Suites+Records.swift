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

    /// Measures suite 7: an untimed warm-up round, then `rounds` rounds. In a round, every
    /// variant in turn (in an order shuffled afresh each round, seeded, so that no variant keeps
    /// the same neighbours) upserts the same `n` records
    /// into a fresh store in one transaction (durability `.full`; GRDB WAL synchronous=FULL),
    /// untimed into one store and then timed into another (GRDB only timed), and keeps the
    /// timed one open. Then the scans, sorted (`created` newest first) and
    /// decoded, each one's count and order checked, in three passes, each pass every variant once
    /// in an order shuffled afresh: an untimed scan of the variant's store, then a timed one. A
    /// variant's scan figure for the round is the median of its three timed scans.
    ///
    /// The scans are interleaved because this machine switches between a fast and a slow phase
    /// every few seconds (the same scan takes 60 or 100 ms; see BENCHMARKS.md): a pass takes
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
            for variant in variants.shuffled(using: &shuffle) {
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
                let ns: UInt64, cpu: UInt64
                switch variant {
                case .macro: (ns, cpu) = try upsertRound(macro, into: &open, as: variant)
                case .tweet: (ns, cpu) = try upsertRound(tweets, into: &open, as: variant)
                case .handCoded: (ns, cpu) = try upsertRound(handCoded, into: &open, as: variant)
                case .uninterned: (ns, cpu) = try upsertRound(uninterned, into: &open, as: variant)
                case .codable: (ns, cpu) = try upsertRound(codable, into: &open, as: variant)
                case .grdb: (ns, cpu) = try grdbUpsertRound(grdb, into: &open)
                case .raw:
                    let run = try rawBulk(keys: keys, values: values)
                    (ns, cpu) = (run.ns, run.cpu)
                }
                guard round >= 0 else { continue }
                upsert[variant, default: []].append(ns)
                upsertCPU[variant, default: []].append(cpu)
            }
            // Each timed scan right after an untimed one of the same store: whatever the variant
            // before left in the heap (a GRDB or Codable scan frees far more than a TweetieDB
            // one, and glibc may trim it), the timed scan starts from its own variant's release.
            var runs: [RecordVariant: [(ns: UInt64, cpu: UInt64)]] = [:]
            for _ in 0..<3 {
                for entry in open.shuffled(using: &shuffle) {
                    _ = try entry.stored.scan()
                    runs[entry.variant, default: []].append(try entry.stored.scan())
                }
            }
            guard round >= 0 else { continue }
            for (variant, timed) in runs {
                let median = timed.sorted { $0.ns < $1.ns }[timed.count / 2]
                scan[variant, default: []].append(median.ns)
                scanCPU[variant, default: []].append(median.cpu)
            }
        }
        return RecordTypesResult(n: n, upsert: upsert, scan: scan, upsertCPU: upsertCPU, scanCPU: scanCPU)
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
