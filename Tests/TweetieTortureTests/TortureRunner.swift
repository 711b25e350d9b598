import Foundation

/// Runs the built `tweetie-torture` executable as a separate process.
enum Torture {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    struct Timeout: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "tweetie-torture \(arguments.joined(separator: " ")) did not finish in time" }
    }

    /// The executable in the build products directory, next to the test bundle.
    static let executable: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("tweetie-torture")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/tweetie-torture")
    }()

    /// Runs `tweetie-torture arguments…` to completion, bounded by `timeout` seconds.
    static func run(_ arguments: [String], timeout: Double = 120) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collector = Collector(out: out, err: err)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw Timeout(arguments: arguments)
            }
            usleep(10_000)
        }
        let (stdout, stderr) = collector.finish()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Drains both pipes on background threads so that a chatty process never blocks.
final class Collector: @unchecked Sendable {
    private var stdout = Data(), stderr = Data()
    private let group = DispatchGroup()

    init(out: Pipe, err: Pipe) {
        let o = out.fileHandleForReading, e = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { self.stdout = o.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { self.stderr = e.readDataToEndOfFile() }
    }

    func finish() -> (Data, Data) {
        group.wait()
        return (stdout, stderr)
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
