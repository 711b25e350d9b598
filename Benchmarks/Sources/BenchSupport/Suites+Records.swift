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

    /// Measures suite 7: an untimed warm-up round, then `rounds` rounds, each of which, for every
    /// variant in turn (the order rotated by one each round and reversed every other round, so
    /// that no variant always runs first or after the same one),
    /// upserts the same `n` records into a fresh store in one transaction (durability `.full`;
    /// GRDB WAL synchronous=FULL) and then, after one untimed scan, times three sorted (`created`
    /// newest first) decoded scans of all of them, checking each one's count and order, and keeps
    /// the median (``timedScan(of:count:_:)``).
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
        // Round -1 is an untimed warm-up (heap, page cache, the encoding thread). A round's order is
        // the variants rotated by the round's number, reversed every other round: no variant
        // always runs first, last or after the same one (the one before leaves the heap, which
        // glibc may or may not have trimmed, to the one after).
        for round in -1..<rounds {
            let rotated = (0..<variants.count).map { variants[($0 + max(round, 0)) % variants.count] }
            for variant in round % 2 == 0 ? rotated : rotated.reversed() {
                let times: RoundTimes
                switch variant {
                case .macro: times = try storeRound(macro)
                case .tweet: times = try storeRound(tweets)
                case .handCoded: times = try storeRound(handCoded)
                case .uninterned: times = try storeRound(uninterned)
                case .codable: times = try storeRound(codable)
                case .grdb: times = try grdbRound(grdb)
                case .raw:
                    let run = try rawBulk(keys: keys, values: values)
                    times = RoundTimes(upsert: run.ns, upsertCPU: run.cpu)
                }
                guard round >= 0 else { continue }
                upsert[variant, default: []].append(times.upsert)
                upsertCPU[variant, default: []].append(times.upsertCPU)
                if let ns = times.scan, let cpu = times.scanCPU {
                    scan[variant, default: []].append(ns)
                    scanCPU[variant, default: []].append(cpu)
                }
            }
        }
        return RecordTypesResult(n: n, upsert: upsert, scan: scan, upsertCPU: upsertCPU, scanCPU: scanCPU)
    }

    /// One round of one variant: elapsed and CPU nanoseconds of its upsert and (but for raw) its scan.
    ///
    /// ```swift
    /// let times = try Suites.storeRound(tweets)
    /// print(times.upsert, times.scan ?? 0)
    /// ```
    struct RoundTimes {
        var upsert: UInt64
        var upsertCPU: UInt64
        var scan: UInt64?
        var scanCPU: UInt64?
    }

    /// One round of one TweetieDB record type: the timed upsert into a fresh store, then the timed
    /// scan after an untimed one.
    ///
    /// ```swift
    /// let (upsertNs, scanNs) = try Suites.storeRound(tweets)
    /// ```
    static func storeRound<R: Record & BenchRecord>(_ records: [R]) throws -> RoundTimes {
        let path = TemporaryPath.make("records")
        let store = try Store.open(at: path, configuration: TweetieFixture.configuration(durability: .full), collections: [R.self])
        defer { store.close(); try? FileManager.default.removeItem(atPath: path) }
        let (_, upsertNs, _, upsertCPU) = try PageFaults.timing { try store.write { tx in try tx.add(contentsOf: records, update: .all) } }
        let query = Query<R>().sorted(byIndex: "created")
        let (scanNs, scanCPU) = try timedScan(of: "\(R.self)", count: records.count) { try store.read { try $0.fetch(query) } }
        return RoundTimes(upsert: upsertNs, upsertCPU: upsertCPU, scan: scanNs, scanCPU: scanCPU)
    }

    /// The same round for the GRDB `Codable` record, in a fresh GRDB peer.
    ///
    /// ```swift
    /// let (upsertNs, scanNs) = try Suites.grdbRound(tweets.map(GRDBCodableTweet.init))
    /// ```
    static func grdbRound(_ records: [GRDBCodableTweet]) throws -> RoundTimes {
        let peer = try GRDBPeer(synchronous: .full)
        defer { peer.close() }
        let (_, upsertNs, _, upsertCPU) = try PageFaults.timing { try peer.upsertRecords(records) }
        let (scanNs, scanCPU) = try timedScan(of: "GRDBCodableTweet", count: records.count) { try peer.recordTimeline() }
        return RoundTimes(upsert: upsertNs, upsertCPU: upsertCPU, scan: scanNs, scanCPU: scanCPU)
    }

    /// Runs `scan` once untimed and three times timed, checks that each returned `count` records
    /// with ids `count` down to 1 (newest first: `created` grows with the id), and returns the
    /// elapsed and CPU nanoseconds of the median timed run; each result is released after the
    /// clock stops.
    ///
    /// ```swift
    /// let (ns, cpu) = try Suites.timedScan(of: "Tweet", count: n) { try store.read { try $0.fetch(Suites.timeline) } }
    /// ```
    static func timedScan<R: BenchRecord>(of name: String, count: Int, _ scan: () throws -> [R]) throws -> (UInt64, UInt64) {
        func check(_ records: [R]) throws {
            guard records.count == count, records.first?.id == Int64(count), records.last?.id == 1 else {
                throw SuiteError("suite 7: the sorted scan of \(name) returned \(records.count) records of \(count), ids \(records.first?.id ?? 0)…\(records.last?.id ?? 0), expected \(count)…1")
            }
        }
        try check(try scan())
        var runs: [(ns: UInt64, cpu: UInt64)] = []
        for _ in 0..<3 {
            let (records, ns, _, cpu) = try PageFaults.timing(scan)
            try check(records)
            runs.append((ns, cpu))
        }
        return runs.sorted { $0.ns < $1.ns }[1]
    }
}

extension Tweet: BenchRecord {
    init(_ tweet: Tweet) { self = tweet }
}
