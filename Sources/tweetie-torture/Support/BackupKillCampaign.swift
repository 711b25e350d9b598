import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The kill-during-backup campaign: SIGKILLs `tweetie-db backup` at random moments and checks
/// that the destination holds no `data.mdb`, or a complete, private one that verifies and exports
/// exactly like the source.
final class BackupKillCampaign {
    let tweetieDB: String
    let directory: String
    let verbose: Bool
    private(set) var summary = BackupKillSummary()
    private var rng: SplitMix64
    private var reference = Data()
    private var source: String { directory + "/source" }

    init(tweetieDB: String, directory: String, seed: UInt64, verbose: Bool) {
        self.tweetieDB = tweetieDB
        self.directory = directory
        self.verbose = verbose
        rng = SplitMix64(seed: seed)
    }

    /// Writes the source database, exports the reference and times uninterrupted backups.
    func prepare(records: Int) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: source)
        try tweetie(["bench", "writes", "--db", source, "--records", "\(records)", "--batch", "1000", "--durability", "no-sync", "--format", "json"])
        reference = try tweetie(["export", "--db", source])
        let timed = directory + "/timed"
        // The fastest of three: the first backup reads a cold source, and on a loaded machine one
        // slow run would stretch the kill window past every later backup's end (nothing killed).
        var fastest = Int.max
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: timed)
            let started = Date()
            try tweetie(["backup", timed, "--db", source])
            fastest = min(fastest, Int(Date().timeIntervalSince(started) * 1000))
        }
        summary.fullBackupMilliseconds = fastest
        summary.killWindowStartMilliseconds = summary.fullBackupMilliseconds * 2 / 5
        summary.killWindowMilliseconds = max(1, summary.fullBackupMilliseconds * 6 / 5)
        summary.backupBytes = (try? FileManager.default.attributesOfItem(atPath: timed + "/data.mdb")[.size] as? Int) ?? 0
        summary.records = records
        if let problem = check(timed) { throw TortureError("the uninterrupted backup is wrong: \(problem)") }
        try? FileManager.default.removeItem(atPath: timed)
    }

    func run(trials: Int) {
        for trial in 0..<trials {
            let destination = directory + "/backup-\(trial)"
            try? FileManager.default.removeItem(atPath: destination)
            let delay = rng.int(in: summary.killWindowStartMilliseconds...summary.killWindowMilliseconds)
            var outcome: String
            do {
                let backup = try ChildProcess(executable: tweetieDB, arguments: ["backup", destination, "--db", source])
                usleep(UInt32(delay) * 1000)
                backup.kill()
                let (code, signal) = backup.wait()
                if signal == SIGKILL { summary.killed += 1 } else if code == 0 { summary.finished += 1 } else {
                    fail(trial, "the backup failed by itself (status \(code.map(String.init) ?? "?"), signal \(signal)): \(backup.standardError)")
                }
                let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).filter { $0.hasPrefix("data.mdb.partial-") }
                summary.leftoverTemporaries += leftovers.count
                if FileManager.default.fileExists(atPath: destination + "/data.mdb") {
                    if let problem = check(destination) {
                        fail(trial, problem)
                        outcome = "BROKEN"
                    } else {
                        summary.complete += 1
                        outcome = "complete"
                    }
                } else {
                    summary.absent += 1
                    outcome = "absent"
                }
                if signal != SIGKILL { outcome += " (finished first)" }
            } catch {
                fail(trial, "\(error)")
                outcome = "error"
            }
            summary.trials += 1
            if verbose { Out.error("trial \(trial): killed after \(delay) ms; destination \(outcome)") }
            try? FileManager.default.removeItem(atPath: destination)
        }
    }

    /// Why the backup in `destination` is not a complete copy of the source, or nil.
    private func check(_ destination: String) -> String? {
        let file = destination + "/data.mdb"
        if let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            return "\(file) has mode \(String(mode, radix: 8)), not owner-only"
        }
        do {
            try tweetie(["verify", "--db", destination])
            guard try tweetie(["export", "--db", destination]) == reference else {
                return "\(file) exists but its export differs from the source's: an incomplete backup under the final name"
            }
        } catch {
            return "\(file) exists but is not a complete backup: \(error)"
        }
        return nil
    }

    private func fail(_ trial: Int, _ message: String) {
        summary.failures.append("trial \(trial): \(message)")
    }

    /// Runs `tweetie-db arguments…` to completion; returns its stdout, throws on failure.
    @discardableResult
    private func tweetie(_ arguments: [String]) throws -> Data {
        let process = try ChildProcess(executable: tweetieDB, arguments: arguments)
        guard process.wait(atMost: 300) else { throw TortureError("tweetie-db \(arguments.joined(separator: " ")) did not finish in 300 s") }
        let (code, signal) = process.wait()
        guard code == 0 else {
            throw TortureError("tweetie-db \(arguments.joined(separator: " ")) failed (status \(code.map(String.init) ?? "-"), signal \(signal)): \(process.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return Data(process.standardOutput)
    }
}
