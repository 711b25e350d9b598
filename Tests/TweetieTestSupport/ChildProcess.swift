import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a child process left: its exit status (or signal), standard output and standard error.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: String
    /// The signal that ended the process, if one did.
    public var signal: Int32?

    public init(status: Int32, stdout: Data, stderr: String, signal: Int32? = nil) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.signal = signal
    }

    /// Standard output as text.
    public var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// A child process did not finish (or print its next line) within the time the test allowed.
public struct ProcessTimeout: Error, CustomStringConvertible {
    /// The command line, executable name first.
    public let command: [String]
    public init(command: [String]) { self.command = command }
    public var description: String { "\(command.joined(separator: " ")) did not finish in time" }
}

/// Runs programs for the tests: the package's built executables and system tools.
public enum ChildProcess {
    /// The package's executable `name` (`tweetie-db`, `tweetie-torture`) in the build products
    /// directory, next to the test bundle; `.build/debug/NAME` when it is not found there.
    public static func builtProduct(_ name: String) -> URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/\(name)")
    }

    /// Set once per test process: SIGPIPE ignored, so writes to a closed pipe return EPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable arguments…` to completion, bounded by `timeout` seconds (then it is
    /// terminated and ``ProcessTimeout`` thrown). `stdin` is written and closed (an empty
    /// standard input when `nil`); `environment` adds or, with `nil`, removes variables. `nil`
    /// arguments start it with an empty argv (``SpawnedProcess/emptyArgv``).
    public static func run(_ executable: URL, _ arguments: [String]?, stdin: Data? = nil,
                           environment: [String: String?] = [:], timeout: Double = 120) throws -> ProcessResult {
        let process = SpawnedProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.emptyArgv = arguments == nil
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        // A child that exits before reading all of its input (a failed import) must not take
        // the whole test process down with SIGPIPE: the write then fails with EPIPE, which is
        // ignored, and the child's status and stderr say what happened.
        _ = ignoreBrokenPipes
        try process.run()
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        let collector = OutputCollector(out: out, err: err)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw ProcessTimeout(command: [executable.lastPathComponent] + (arguments ?? []))
            }
            usleep(10_000)
        }
        let (stdout, stderr) = collector.finish()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return ProcessResult(status: process.terminationStatus, stdout: stdout,
                             stderr: String(decoding: stderr, as: UTF8.self), signal: signal)
    }

    /// Starts `executable arguments…` and returns it running, its standard output readable line
    /// by line (standard error is discarded).
    public static func start(_ executable: URL, _ arguments: [String]) throws -> RunningProcess {
        let process = SpawnedProcess()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, output: out.fileHandleForReading)
    }

    /// The exit status of `executable arguments…` with its output discarded; -1 when it cannot
    /// be started.
    @discardableResult
    public static func status(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Drains both pipes on background threads so that a chatty process never blocks on a full pipe.
public final class OutputCollector: @unchecked Sendable {
    private var stdout = Data(), stderr = Data()
    private let group = DispatchGroup()

    public init(out: Pipe, err: Pipe) {
        let o = out.fileHandleForReading, e = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { self.stdout = o.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { self.stderr = e.readDataToEndOfFile() }
    }

    /// Both outputs, once the process closed them.
    public func finish() -> (stdout: Data, stderr: Data) {
        group.wait()
        return (stdout, stderr)
    }
}

/// A running child process whose standard output is read line by line.
public final class RunningProcess: @unchecked Sendable {
    public let process: SpawnedProcess
    private let output: FileHandle
    private var buffer = Data()

    public init(process: SpawnedProcess, output: FileHandle) {
        self.process = process
        self.output = output
    }

    /// The next line of output (`nil` at its end), waiting at most `timeout` seconds.
    public func nextLine(timeout: Double = 30) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return String(decoding: line, as: UTF8.self)
            }
            if Date() > deadline {
                throw ProcessTimeout(command: [process.executableURL?.lastPathComponent ?? "?"] + (process.arguments ?? []))
            }
            var pfd = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0 {
                let chunk = output.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }
    }

    /// Terminates the process (if still running) and waits for it.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
