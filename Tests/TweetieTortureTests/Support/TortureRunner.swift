import Foundation
import TweetieTestSupport

/// Runs the built `tweetie-torture` executable as a separate process (through TweetieTestSupport's
/// `ChildProcess`).
enum Torture {
    typealias Result = ProcessResult

    /// The executable in the build products directory, next to the test bundle.
    static let executable = ChildProcess.builtProduct("tweetie-torture")

    /// Runs `tweetie-torture arguments…` to completion, bounded by `timeout` seconds.
    static func run(_ arguments: [String], timeout: Double = 120) throws -> Result {
        try ChildProcess.run(executable, arguments, timeout: timeout)
    }
}

/// The fields of `crash --format json` the tests read.
struct CrashSummary: Decodable {
    var durability: String
    var trials: Int
    var writerKills: Int
    var readerKills: Int
    var feedKills: Int
    var observerKills: Int
    var ackedTransactionsChecked: Int
    var inFlightPresent: Int
    var inFlightAbsent: Int
    var asyncWriters: Int
    var asyncLogEntries: Int
    var asyncTransactions: Int
    var failures: [String]
}

/// The fields of `stress --format json` the tests read.
struct StressSummary: Decodable {
    var commits: UInt64
    var commitsPerWriter: [Int]
    var sharedOverwrites: Int
    var records: Int
    var fileSizeBefore: Int
    var fileSizeAfter: Int
    var usedSizeAfter: Int
    var compactedSize: Int
    var mapSizeBefore: Int
    var writerMapSizes: [Int]
    var maxFileRatio: Double
    var growth: Growth?
    var observersChecked: [String]
    var failures: [String]

    struct Growth: Decodable {
        var pageSize: Int
        var samples: [Sample]
        var milestones: [Milestone]
        var polls: Int
        var maxReaderLag: Int
        var maxPinnedPages: Int
    }

    struct Sample: Decodable {
        var seconds: Double
        var fileSize: Int
        var usedPages: Int
        var freePages: Int
        var pinnedPages: Int
        var lastTransaction: Int
        var readerLag: Int
        var maxReaderLag: Int
    }

    struct Milestone: Decodable {
        var percent: Int
        var sample: Sample
    }
}
