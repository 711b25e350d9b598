/// What a crash run counted.
struct CrashSummary: Codable, Sendable {
    var durability: String
    /// 0: one synchronous writer; N: N tasks in the writer process committing with `await store.write`.
    var asyncWriters = 0
    /// With async writers, after each trial on a continuing database: the change-log entries the
    /// trial added, and the LMDB transactions that carried them (fewer: group commits).
    var asyncLogEntries = 0
    var asyncTransactions = 0
    var trials = 0
    var writerKills = 0
    var readerKills = 0
    var feedKills = 0
    var observerKills = 0
    var ackedTransactionsChecked = 0
    var inFlightPresent = 0
    var inFlightAbsent = 0
    var staleReaderSlotsCleared = 0
    var freshDatabases = 0
    var interruptedCreations = 0
    var finalRecords = 0
    var finalSequence: UInt64 = 0
    var failures: [String] = []
}
