import ArgumentParser
import Foundation

/// `tweetie-torture backup-kill`: `tweetie-db backup` killed with SIGKILL at random moments.
struct BackupKillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup-kill",
        abstract: "Kill `tweetie-db backup` at random moments and check that it leaves no backup or a complete one.",
        discussion: "A source database of --records synthetic tweets is written once (`tweetie-db bench writes`) and exported as the reference. Three uninterrupted backups are timed; then every trial starts `tweetie-db backup DEST --db SOURCE` and kills it with SIGKILL after a random delay between 0.4 and 1.2 × the fastest (the process starts up in the first part), so kills land before, during and after the copy. After each kill the destination must hold no data.mdb, or a data.mdb that is owner-only (0600), passes `tweetie-db verify` and exports to exactly the reference. Temporary files a killed backup leaves (data.mdb.partial-PID, which SIGKILL cannot clean up) are counted, never accepted under the name data.mdb. Needs tweetie-db built beside this tool. Exits with status 1 on any failure.")

    @Option(help: "How many kills.")
    var trials: Int = 30

    @Option(help: "How many tweets the source database holds (more records: a longer copy).")
    var records: Int = 20_000

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "The working directory (default: a new temporary directory, removed at the end).")
    var work: String?

    @Option(help: "Print the summary as text or json.")
    var format: CrashCommand.SummaryFormat = .text

    @Flag(help: "Print one line per trial on stderr.")
    var verbose = false

    func validate() throws {
        if trials < 1 { throw ValidationError("--trials must be at least 1.") }
        if records < 1 { throw ValidationError("--records must be at least 1.") }
    }

    func run() throws {
        guard let tweetieDB = Executables.tweetieDB else {
            throw TortureError("backup-kill needs tweetie-db built beside tweetie-torture (swift build --product tweetie-db)")
        }
        let temporary = work == nil
        let directory = work ?? FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-torture-backup-kill-\(UUID().uuidString)").path
        defer { if temporary { try? FileManager.default.removeItem(atPath: directory) } }
        let campaign = BackupKillCampaign(tweetieDB: tweetieDB, directory: directory, seed: seed, verbose: verbose)
        let started = Date()
        try campaign.prepare(records: records)
        campaign.run(trials: trials)
        let summary = campaign.summary
        try format.report(summary, failures: summary.failures) { [
            "backup-kill: \(summary.trials) trials in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; a full backup of \(summary.records) records (\(summary.backupBytes) bytes) took \(summary.fullBackupMilliseconds) ms; kills after \(summary.killWindowStartMilliseconds)…\(summary.killWindowMilliseconds) ms",
            "  killed while running: \(summary.killed); finished before the kill: \(summary.finished)",
            "  destination afterwards: \(summary.absent) without data.mdb, \(summary.complete) complete (verified, identical export)",
            "  killed mid-copy (a temporary file left, which SIGKILL cannot clean up): \(summary.leftoverTemporaries)",
        ] }
    }
}
