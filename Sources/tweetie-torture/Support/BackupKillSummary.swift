/// What a backup-kill run counted.
struct BackupKillSummary: Codable, Sendable {
    var records = 0
    var backupBytes = 0
    var fullBackupMilliseconds = 0
    var killWindowStartMilliseconds = 0
    var killWindowMilliseconds = 0
    var trials = 0
    var killed = 0
    var finished = 0
    var absent = 0
    var complete = 0
    var leftoverTemporaries = 0
    var failures: [String] = []
}
