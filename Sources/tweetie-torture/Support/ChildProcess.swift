import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, whose stdout and stderr are collected by two
/// threads; stdout can also be read line by line while it runs.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    let arguments: [String]
    private let state = Mutex(Buffers())
    private let drained = DispatchGroup()
    private var exitStatus: Int32?

    private struct Buffers {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        /// How many complete lines of stdout were handed out by `newLines()`.
        var consumed = 0
    }

    /// Starts `executable arguments…` with stdin from /dev/null.
    init(executable: String, arguments: [String]) throws {
        self.arguments = [executable] + arguments
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw TortureError("cannot create a pipe for \(executable): \(String(cString: strerror(errno)))")
        }
        // Only the harness's main thread spawns, so setting close-on-exec after pipe() is not racy.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard code == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw TortureError("cannot start \(executable): \(String(cString: strerror(code)))")
        }
        pid = child
        collect(outPipe[0], isStandardOutput: true)
        collect(errPipe[0], isStandardOutput: false)
    }

    private func collect(_ fd: Int32, isStandardOutput: Bool) {
        drained.enter()
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                state.withLock { buffers in
                    if isStandardOutput { buffers.stdout.append(contentsOf: chunk[0..<n]) } else { buffers.stderr.append(contentsOf: chunk[0..<n]) }
                }
            }
            close(fd)
            drained.leave()
        }
        thread.start()
    }

    /// Sends `signal` (SIGKILL by default).
    func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(pid, signal) }

    /// Waits for the process to exit and its output to be drained; returns the wait status
    /// decoded as (exit code, or nil when killed by a signal; signal number or 0).
    @discardableResult
    func wait() -> (code: Int32?, signal: Int32) {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
            drained.wait()
        }
        let status = exitStatus!
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, 0) : (nil, signal)
    }

    /// Whether the process has exited (reaps it when it has).
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return false }
        exitStatus = status
        drained.wait()
        return true
    }

    /// Waits at most `seconds` for the process to exit; kills it with SIGKILL after that.
    /// Returns whether it exited by itself.
    func wait(atMost seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !hasExited {
            if Date() > deadline {
                kill()
                wait()
                return false
            }
            usleep(5_000)
        }
        return true
    }

    /// Every complete stdout line so far.
    var lines: [Substring] {
        let text = state.withLock { String(decoding: $0.stdout, as: UTF8.self) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // the text after the last newline: empty, or a torn line
        return lines
    }

    /// The complete stdout lines that arrived since the previous call.
    func newLines() -> [Substring] {
        let (bytes, start) = state.withLock { buffers -> ([UInt8], Int) in (buffers.stdout, buffers.consumed) }
        guard let lastNewline = bytes.lastIndex(of: 0x0A), lastNewline >= start else { return [] }
        let text = String(decoding: bytes[start...lastNewline], as: UTF8.self)
        state.withLock { $0.consumed = lastNewline + 1 }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    /// Everything written to stdout so far.
    var standardOutput: [UInt8] { state.withLock { $0.stdout } }

    /// Everything written to stderr so far.
    var standardError: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Waits up to `seconds` for a stdout line starting with `prefix`.
    func waitForLine(startingWith prefix: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.contains(where: { $0.hasPrefix(prefix) }) { return true }
            if hasExited { return lines.contains(where: { $0.hasPrefix(prefix) }) }
            usleep(2_000)
        }
        return false
    }
}
