import ArgumentParser
import Foundation

/// `tweetie-torture crash`: random SIGKILLs of writers, readers and observers, each followed by
/// a full consistency check.
struct CrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill writers (and readers, feeds, observers) at random moments and check that nothing acknowledged is lost.",
        discussion: "Per trial: a writer commits and acknowledges transactions; after a random 5–300 ms it is killed with SIGKILL; the database is reopened read-only (no repair step) and checked: verify() passes, every acknowledged transaction is present in full (against a model built from the acks), each in-flight transaction (one for the synchronous writer; up to one per task with --async-writers, several of them in one group commit) is entirely present or entirely absent (records, index entries, change-log entry), and no reader slot is left held. In a share of the trials a reader, a `tweetie-db feed list --follow` or an observer is killed instead, mid-read, while the writer runs; the writer must keep committing and the dead process's reader slot must be reclaimed. Exits with status 1 on any failure.")

    @Option(help: "How many trials.")
    var trials: Int = 20

    @Option(help: "The durability the writer commits with: full, no-meta-sync or no-sync.")
    var durability: DurabilityArgument = .full

    @Option(name: .customLong("async-writers"), help: "Run each writer as N tasks that commit concurrently with `await store.write`, so that their writes share group commits; every in-flight transaction of a killed group must then be entirely present or entirely absent. 0 (the default) runs one synchronous writer.")
    var asyncWriters: Int = 0

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The database directory (default: a new temporary directory, removed at the end). It is deleted and recreated.")
    var db: String?

    @Option(name: .customLong("fresh-every"), help: "Start from a fresh database every N trials; the others continue the previous database.")
    var freshEvery: Int = 25

    @Option(name: .customLong("victim-percent"), help: "The share of trials that kill a reader, feed or observer (in turn) instead of the writer.")
    var victimPercent: Int = 25

    @Option(name: .customLong("min-ms"), help: "The earliest kill, in milliseconds after the start.")
    var minMilliseconds: Int = 5

    @Option(name: .customLong("max-ms"), help: "The latest kill, in milliseconds after the start.")
    var maxMilliseconds: Int = 300

    @Option(help: "Print the summary as text or json.")
    var format: SummaryFormat = .text

    @Option(name: .customLong("writer-fault"), help: ArgumentHelp("Make the writers misbehave (see 'writer --inject-fault'), to show that the checks catch it.", visibility: .hidden))
    var writerFault: WriterFault = .none

    @Flag(help: "Print one line per trial on stderr.")
    var verbose = false

    enum SummaryFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if trials < 1 { throw ValidationError("--trials must be at least 1.") }
        if freshEvery < 1 { throw ValidationError("--fresh-every must be at least 1.") }
        if !(0...100).contains(victimPercent) { throw ValidationError("--victim-percent must be between 0 and 100.") }
        if minMilliseconds < 0 || maxMilliseconds < minMilliseconds { throw ValidationError("--min-ms must be between 0 and --max-ms.") }
        if !(0...64).contains(asyncWriters) { throw ValidationError("--async-writers must be between 0 and 64.") }
    }

    func run() throws {
        let temporary = db == nil
        let path = db ?? FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-torture-crash-\(UUID().uuidString)").path
        defer { if temporary { try? FileManager.default.removeItem(atPath: path) } }
        let started = Date()
        let harness = CrashHarness(database: path, durability: durability, seed: seed, freshEvery: freshEvery,
                                   victimPercent: victimPercent, killWindow: minMilliseconds...maxMilliseconds, writerFault: writerFault,
                                   asyncWriters: asyncWriters, verbose: verbose)
        harness.run(trials: trials)
        let summary = harness.summary
        let elapsed = Date().timeIntervalSince(started)
        try format.report(summary, failures: summary.failures) { [
            "crash [\(summary.durability)\(summary.asyncWriters > 0 ? ", \(summary.asyncWriters) async writers" : "")]: \(summary.trials) trials in \(String(format: "%.1f", elapsed)) s, \(summary.freshDatabases) fresh databases",
            "  kills: \(summary.writerKills) writers, \(summary.readerKills) readers, \(summary.feedKills) feeds, \(summary.observerKills) observers",
            "  acked transactions checked: \(summary.ackedTransactionsChecked); in-flight at kill: \(summary.inFlightPresent) committed in full, \(summary.inFlightAbsent) absent in full",
            summary.asyncWriters > 0 ? "  group commit: \(summary.asyncLogEntries) change-log entries in \(summary.asyncTransactions) LMDB transactions (trials on a continuing database)" : nil,
            "  stale reader slots cleared: \(summary.staleReaderSlotsCleared); creations interrupted before the first commit: \(summary.interruptedCreations)",
            "  final database: \(summary.finalRecords) records, change-log sequence \(summary.finalSequence)",
        ].compactMap { $0 } }
    }
}
