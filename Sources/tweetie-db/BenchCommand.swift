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

        @OptionGroup var database: DatabaseOptions

        @Option(help: "How many times each measurement is repeated.")
        var rounds: Int = 5

        @Option(help: "The output format: table or json.")
        var format: StatsCommand.StatsFormat = .table

        func validate() throws {
            guard rounds > 0 else { throw ValidationError("--rounds must be positive.") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let result = try ReadBenchmark(rounds: rounds).run(on: store)
                if format == .json {
                    Out.line(String(decoding: try RecordJSON.encoder().encode(result), as: UTF8.self))
                    return
                }
                Out.line("first page   \(String(format: "%.3f ms", result.firstPageSeconds * 1000)) (50 rows, median)")
                Out.line("full scan    \(result.records) tweets in \(String(format: "%.1f ms", result.scanSeconds * 1000)): \(Int(result.scanRecordsPerSecond)) records/s (best of \(rounds))")
                Out.line("page check   \(result.pagesChecked) pages in \(String(format: "%.1f ms", result.pageCheckSeconds * 1000)) (the structural check verify runs first, best of \(rounds))")
            }
        }
    }

    struct Writes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "writes",
            abstract: "Write tweet-shaped records with the real indexes and report throughput and commit latency.",
            discussion: "Without --db the benchmark writes into a temporary database that is removed afterwards; with --db the records are added to that database.")

        @Option(name: .customLong("db"), help: "A database to write into. Without it, a temporary database is used and removed.")
        var path: String?

        @Option(help: "How many records to write.")
        var records: Int = 100_000

        @Option(help: "How many records each write transaction commits.")
        var batch: Int = 1_000

        @Option(help: "What a commit waits for: full (fsync data and meta page), no-meta-sync, or no-sync.")
        var durability: DurabilityArgument = .full

        @Option(help: "The output format: table or json.")
        var format: StatsCommand.StatsFormat = .table

        enum DurabilityArgument: String, ExpressibleByArgument, CaseIterable {
            case full, noMetaSync = "no-meta-sync", noSync = "no-sync"
            var durability: Durability {
                switch self {
                case .full: .full
                case .noMetaSync: .noMetaSync
                case .noSync: .noSync
                }
            }
        }

        func validate() throws {
            guard records > 0 else { throw ValidationError("--records must be positive.") }
            guard batch > 0 else { throw ValidationError("--batch must be positive.") }
            guard batch <= records else { throw ValidationError("--batch (\(batch)) cannot exceed --records (\(records)).") }
        }

        func run() throws {
            try reportingErrors {
                var configuration = StoreConfiguration()
                configuration.environment.durability = durability.durability
                let store: Store
                if let path {
                    do {
                        store = try TweetieDatabase.open(at: path, configuration: configuration)
                    } catch let error as DatabaseError {
                        throw CLIError(describing: error, path: path)
                    }
                } else {
                    store = try Store.temporary(collections: TweetieDatabase.collections, configuration: configuration, keepDurability: true)
                }
                defer { store.close() }
                let progress = ProgressBar("writing")
                let result = try WriteBenchmark(records: records, batch: batch).run(on: store) { progress.update($0, of: records) }
                progress.finish()
                if format == .json {
                    Out.line(String(decoding: try RecordJSON.encoder().encode(result), as: UTF8.self))
                    return
                }
                func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
                Out.line("records      \(result.records) in \(result.commits) commits of \(result.batch) (durability \(durability.rawValue))")
                Out.line("throughput   \(Int(result.recordsPerSecond)) records/s, \(Int(result.commitsPerSecond)) commits/s")
                Out.line("commit       p50 \(ms(result.latency.p50))  p90 \(ms(result.latency.p90))  p99 \(ms(result.latency.p99))  max \(ms(result.latency.max))")
            }
        }
    }
}
