/// What a crash run counted.
struct CrashSummary: Codable, Sendable {
    var durability: String
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
