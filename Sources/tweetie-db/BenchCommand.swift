import ArgumentParser
import Foundation
import TweetieSync

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the database on this machine.",
        subcommands: [Writes.self, Reads.self])

    struct Reads: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reads",
            abstract: "Time the first page of the timeline, a full decoded scan of the stored tweets, and verify's page check.")

        @OptionGroup var database: ReadDatabaseOptions

        @Option(help: "How many times each measurement is repeated.")
        var rounds: Int = 5

        @Option(help: OutputFormat.help(for: .report))
        var format: OutputFormat?

        func validate() throws {
            guard rounds > 0 else { throw ValidationError("--rounds must be positive.") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let result = try ReadBenchmark(rounds: rounds).run(on: store)
                try printRecord(result, format: OutputFormat.resolve(format, for: .report)) {
                    """
                    first page   \(String(format: "%.3f ms", result.firstPageSeconds * 1000)) (50 rows, median)
                    full scan    \(result.records) tweets in \(String(format: "%.1f ms", result.scanSeconds * 1000)): \(Int(result.scanRecordsPerSecond)) records/s (best of \(rounds))
                    page check   \(result.pagesChecked) pages in \(String(format: "%.1f ms", result.pageCheckSeconds * 1000)) (the structural check verify runs first, best of \(rounds))

                    """
                }
            }
        }
    }

    struct Writes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "writes",
            abstract: "Write tweet-shaped records with the real indexes and report throughput and commit latency.",
            discussion: """
                One untimed warm-up round runs first; then each of --rounds rounds writes the records into a fresh temporary database (removed afterwards). The report gives the median, slowest and fastest round's records/s and the commit latency percentiles over every commit of every round (JSON: recordsPerSecond is the median). With --db, the one measured round adds the records to that database (the warm-up still uses a temporary one). --compare raw also puts the same records' encoded bytes with plain mdb_put (no indexes, one transaction) after each round and prints the store's median over that floor's median, like BenchCompare's suite 1 row (compare it there with --batch equal to --records and durability full).
                """)

        @Option(name: .customLong("db"), help: "An empty or new database to write into (one holding tweets is refused: ids 1…N would be overwritten). Without it, each round uses a temporary database that is removed.")
        var path: String?

        @Option(help: "How many records each round writes.")
        var records: Int = 100_000

        @Option(help: "How many records each write transaction commits.")
        var batch: Int = 1_000

        @Option(help: "What a commit waits for: full (fsync data and meta page), no-meta-sync, or no-sync.")
        var durability: DurabilityArgument = .full

        @Option(help: "Measured rounds after the warm-up (default 5; 1 with --db).")
        var rounds: Int?

        @Option(help: "Also measure a floor to compare with: raw (plain mdb_put of the same encoded records, no indexes, one transaction).")
        var compare: Comparison?

        @Option(help: OutputFormat.help(for: .report))
        var format: OutputFormat?

        enum Comparison: String, ExpressibleByArgument, CaseIterable {
            case raw
        }

        enum DurabilityArgument: String, ExpressibleByArgument, CaseIterable {
            case full, noMetaSync = "no-meta-sync", noSync = "no-sync"
            var durability: StoreConfiguration.Durability {
                switch self {
                case .full: .full
                case .noMetaSync: .noMetaSync
                case .noSync: .noSync
                }
            }
        }

        /// The measured rounds: --rounds, else 5 (1 with --db).
        var measuredRounds: Int { rounds ?? (path == nil ? 5 : 1) }

        func validate() throws {
            guard records > 0 else { throw ValidationError("--records must be positive.") }
            guard batch > 0 else { throw ValidationError("--batch must be positive.") }
            guard batch <= records else { throw ValidationError("--batch (\(batch)) cannot exceed --records (\(records)).") }
            guard measuredRounds > 0 else { throw ValidationError("--rounds must be positive.") }
            guard path == nil || measuredRounds == 1 else {
                throw ValidationError("--rounds must be 1 with --db: every round needs a fresh database, and --db is one existing database (leave out --db to measure several rounds).")
            }
        }

        func run() throws {
            try reportingErrors {
                var configuration = StoreConfiguration()
                configuration.durability = durability.durability
                var existing: Store?
                if let path {
                    do {
                        existing = try TweetieDatabase.open(at: path, configuration: configuration)
                    } catch let error as StoreError {
                        throw CLIError(describing: error, path: path)
                    }
                }
                defer { existing?.close() }
                if let existing, let path {
                    // The benchmark writes ids 1…--records: into stored tweets it would measure
                    // updates, not the additions it reports.
                    let stored = try existing.read { try $0.count(Tweet.self) }
                    if stored > 0 {
                        throw ValidationError("--db \(path) already holds \(counted(stored, "tweet")): bench writes adds ids 1…\(records), so it would overwrite them and measure updates; give an empty or new directory.")
                    }
                }
                let rounds = measuredRounds
                var bar: (round: Int, progress: ProgressBar)?
                let summary = try WriteBenchmark(records: records, batch: batch).run(
                    rounds: rounds, configuration: configuration, into: existing, compareRaw: compare == .raw) { step in
                    if bar?.round != step.round {
                        bar?.progress.finish()
                        bar = (step.round, ProgressBar(step.round == 0 ? "warm-up" : "round \(step.round)/\(rounds)"))
                    }
                    bar?.progress.update(step.written, of: records)
                }
                bar?.progress.finish()
                try printRecord(summary, format: OutputFormat.resolve(format, for: .report)) {
                    Self.table(summary, durability: durability.rawValue).map { $0 + "\n" }.joined()
                }
            }
        }

        /// The text report of `summary`.
        static func table(_ s: WriteBenchmark.Summary, durability: String) -> [String] {
            func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
            func rate(_ value: Double) -> String { "\(Int(value.rounded()))" }
            let l = s.latency
            var lines = [
                "records      \(s.records) per round in \(s.commits) commits of \(s.batch) (durability \(durability))",
                "rounds       \(s.rounds) after \(s.warmUpRounds) warm-up, each into a fresh database: \(s.roundRecordsPerSecond.map(rate).joined(separator: "  ")) records/s (warm-up \(rate(s.warmUpRecordsPerSecond)))",
                "throughput   median \(rate(s.recordsPerSecond)) records/s (min \(rate(s.minRecordsPerSecond)), max \(rate(s.maxRecordsPerSecond)))\(s.commits > 1 ? ", \(Int(s.commitsPerSecond)) commits/s" : "")",
                "commit       min \(ms(l.min))  p50 \(ms(l.p50))  p90 \(ms(l.p90))  p99 \(ms(l.p99))  p99.9 \(ms(l.p999))  max \(ms(l.max))  (\(l.count) commits)",
            ]
            if let raw = s.raw {
                lines.append("raw floor    median \(rate(raw.recordsPerSecond)) records/s (min \(rate(raw.minRecordsPerSecond)), max \(rate(raw.maxRecordsPerSecond))): plain mdb_put of the same encoded records, no indexes, one transaction")
                lines.append("ratio        \(String(format: "%.2f", raw.ratio))× raw mdb_put (median over median)")
            }
            return lines
        }
    }
}
