import ArgumentParser
import Foundation

/// `tweetie-torture stress`: several writer and observer processes on one database.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Run writer and observer processes against one database for a bounded time, then check that nothing was lost.",
        discussion: "The database starts with a 1 MiB map, so the map grows while several processes use it. Writers commit to disjoint id ranges and overwrite shared ids with update policy .all; observers are `tweetie-torture observer` processes and (every second one) `tweetie-db feed list --follow` processes. At the end: every writer's acknowledged state is in the database (shared ids hold the last acknowledged write), every commit was acknowledged exactly once, no process hit MDB_READERS_FULL, verify() passes, data.mdb stays within --max-file-ratio of a compacted copy, and every observer's applied copy equals a fresh read. While the writers run, data.mdb's size, LMDB's page counts and free list, and the oldest reader's lag are sampled; the summary shows them at 10, 25, 50, 75 and 100 % of the run. Exits with status 1 on any failure.")

    @Option(help: "How long the writers run, in seconds.")
    var seconds: Double = 10

    @Option(help: "How many writer processes.")
    var writers: Int = 2

    @Option(help: "How many observer processes (every second one is a `tweetie-db feed list --follow` when tweetie-db is built beside this tool).")
    var observers: Int = 2

    @Option(help: "The database directory; it must not exist yet.")
    var db: String

    @Option(name: .customLong("shared-ids"), help: "Ids 1…N are shared by every writer.")
    var sharedIDs: Int = 20

    @Option(name: .customLong("map-size"), help: "The initial map size in bytes.")
    var mapSize: Int = 1 << 20

    @Option(name: .customLong("max-file-ratio"), help: ArgumentHelp(
        "The largest accepted ratio of data.mdb's size to a compacted copy's.",
        discussion: "data.mdb never shrinks: it ends at its high-water mark, the live data plus the free pages LMDB could not reuse at the worst moment. A writer can only reuse pages freed before the oldest open read transaction's snapshot, so that excess is about (largest reader lag in commits) × (pages one commit rewrites, ~25 here). The bound therefore depends on how long read transactions stay open (CPU load) and on the data size: 4× leaves room for a reader lag of ~60 commits at the 60 s run's ~2.1 MB of data and ~25 at the 5 s run's ~0.85 MB; healthy runs measured 1.6–2.7× with reader lags of at most 25 (RELIABILITY.md, \"The file-size bound\")."))
    var maxFileRatio: Double = 4

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Print the summary as text or json.")
    var format: CrashCommand.SummaryFormat = .text

    func validate() throws {
        if seconds <= 0 { throw ValidationError("--seconds must be positive.") }
        if writers < 1 { throw ValidationError("--writers must be at least 1.") }
        if observers < 0 { throw ValidationError("--observers cannot be negative.") }
        if maxFileRatio < 1 { throw ValidationError("--max-file-ratio must be at least 1 (data.mdb cannot be smaller than its compacted copy).") }
        if sharedIDs < 0 || sharedIDs >= 1_000_000 { throw ValidationError("--shared-ids must be between 0 and 999999.") }
        if FileManager.default.fileExists(atPath: db) { throw ValidationError("--db \(db) already exists; the stress run needs a new database.") }
    }

    func run() throws {
        let started = Date()
        let stress = StressRun(database: db, seconds: seconds, writers: writers, observers: observers, sharedIDs: sharedIDs,
                               mapSize: mapSize, seed: seed, maxFileRatio: maxFileRatio)
        do {
            try stress.run()
        } catch {
            Out.line("stress: failed: \(error)")
            throw ExitCode(1)
        }
        let s = stress.summary
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            Out.line(String(decoding: try encoder.encode(s), as: UTF8.self))
        case .text:
            let ratio = Double(s.usedSizeAfter) / Double(max(1, s.compactedSize))
            Out.line("stress: \(s.writers) writers, \(s.observers) observers, \(s.seconds) s (\(String(format: "%.1f", Date().timeIntervalSince(started))) s in all)")
            Out.line("  commits: \(s.commits) (per writer \(s.commitsPerWriter.map(String.init).joined(separator: ", "))); shared overwrites \(s.sharedOverwrites); \(s.records) records at the end")
            Out.line("  data.mdb: \(s.fileSizeBefore) bytes before, \(s.fileSizeAfter) after, \(s.usedSizeAfter) of them used; compacted copy \(s.compactedSize) (used / compacted \(String(format: "%.2f", ratio)), bound \(s.maxFileRatio))")
            if let growth = s.growth {
                Out.line("  growth (\(growth.samples.count) samples, \(growth.polls) reader-table polls; pages of \(growth.pageSize) bytes):")
                Out.line("     run      t    data.mdb   used   free  pinned  last txn  reader lag (max in the second before)")
                for milestone in growth.milestones {
                    let g = milestone.sample
                    Out.line("    " + [String(format: "%3d%%", milestone.percent), String(format: "%6.1f s", g.seconds), pad(g.fileSize, 10),
                                      pad(g.usedPages, 6), pad(g.freePages, 6), pad(g.pinnedPages, 7), pad(g.lastTransaction, 9),
                                      "  \(g.readerLag) (\(g.maxReaderLag))"].joined(separator: " "))
                }
                if let half = growth.milestones.first(where: { $0.percent == 50 }), let end = growth.milestones.last {
                    let grown = Double(end.sample.fileSize - half.sample.fileSize) / Double(max(1, half.sample.fileSize)) * 100
                    Out.line("  data.mdb grew \(String(format: "%.1f", grown)) % in the second half of the run")
                }
                Out.line("  readers: max lag \(growth.maxReaderLag) commits (\(growth.maxReaderLagHolder ?? "-")); longest read transaction seen \(Int(growth.longestReadMilliseconds)) ms (\(growth.longestReadHolder ?? "-")); at most \(growth.maxPinnedPages) free pages pinned")
            }
            Out.line("  map: \(s.mapSizeBefore) bytes at the start; writers ended with \(s.writerMapSizes.map(String.init).joined(separator: ", ")); \(s.mapSizeAfter) when reopened")
            for line in s.observersChecked { Out.line("  \(line)") }
            Out.line("  failures: \(s.failures.count)")
            for failure in s.failures { Out.line("    \(failure)") }
        }
        if !s.failures.isEmpty { throw ExitCode(1) }
    }
}

/// `value` right-aligned in `width` columns.
private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
