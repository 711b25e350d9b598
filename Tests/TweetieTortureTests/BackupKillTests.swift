import Foundation
import Testing

/// The summary `tweetie-torture backup-kill --format json` prints.
struct BackupKillSummary: Decodable {
    var trials: Int
    var killed: Int
    var finished: Int
    var absent: Int
    var complete: Int
    var failures: [String]
}

@Suite("tweetie-torture backup-kill (short version)", .serialized)
struct BackupKillTests {
    /// SIGKILLed at random moments, a backup leaves no data.mdb or a complete one.
    @Test func killedBackupsLeaveNothingOrACompleteBackup() throws {
        let result = try Torture.run(["backup-kill", "--trials", "12", "--records", "10000", "--seed", "3", "--format", "json"], timeout: 600)
        let summary = try JSONDecoder().decode(BackupKillSummary.self, from: result.stdout)
        #expect(result.status == 0, "\(summary.failures.joined(separator: "\n")) \(result.stderr)")
        #expect(summary.failures.isEmpty)
        #expect(summary.trials == 12 && summary.killed + summary.finished == 12)
        #expect(summary.absent + summary.complete == 12)
        #expect(summary.killed > 0)
    }
}
