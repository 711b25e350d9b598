import Foundation

/// Runs the built `tweetie-db` executable as a separate process.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        /// The signal that ended the process, if one did.
        var signal: Int32?
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The executable next to the test bundle, in the build products directory.
    static let executable: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("tweetie-db")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url = url.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/tweetie-db")
        return fallback
    }()

    /// Runs `tweetie-db arguments…` to completion (bounded by `timeout` seconds) with optional stdin.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double = 120,
                    executable: URL = CLI.executable) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TWEETIE_DB")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let collector = OutputCollector(out: out, err: err)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { process.terminate(); throw CLITimeout(arguments: arguments) }
            usleep(10_000)
        }
        let (stdout, stderr) = collector.finish()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return Result(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self), signal: signal)
    }

    /// Starts `tweetie-db arguments…` and returns it running, with its stdout readable line by line.
    static func start(_ arguments: [String]) throws -> RunningCLI {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return RunningCLI(process: process, output: out.fileHandleForReading)
    }
}

struct CLITimeout: Error, CustomStringConvertible {
    /// The arguments of the timeout `withTimeout(_:_:)` throws (no process was run).
    static let pollArguments = ["timed out"]

    let arguments: [String]
    var description: String { "tweetie-db \(arguments.joined(separator: " ")) did not finish in time" }
}

/// Drains both pipes on background threads so a chatty process never blocks on a full pipe.
final class OutputCollector: @unchecked Sendable {
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

/// A running `tweetie-db` whose stdout is read line by line.
final class RunningCLI: @unchecked Sendable {
    let process: Process
    private let output: FileHandle
    private var buffer = Data()

    init(process: Process, output: FileHandle) {
        self.process = process
        self.output = output
    }

    /// The next line of output, waiting at most `timeout` seconds.
    func nextLine(timeout: Double = 30) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return String(decoding: line, as: UTF8.self)
            }
            if Date() > deadline { throw CLITimeout(arguments: process.arguments ?? []) }
            var pfd = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0 {
                let chunk = output.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// A temporary database directory for one test.
struct TemporaryDatabase {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-cli-\(UUID().uuidString)").path
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
