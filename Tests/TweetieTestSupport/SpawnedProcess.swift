import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Keeps its two companions: `SpawnError` (what `run()` throws) and `CStringArray` (argv and envp).

/// A child process started with `posix_spawn`, with the part of `Foundation.Process`'s interface
/// the tests use. The tests never use `Foundation.Process`.
///
/// Why: on Linux, `Process.run()` of swift-corelibs-foundation (Swift 6.3.1 here) looks for the
/// highest open descriptor by copying each `/proc/self/fd` entry's whole 256-byte `d_name`, while
/// `readdir` returns records only as long as their names. When such a record ends a buffer that
/// ends a mapping, the copy reads past it and the test process dies with SIGSEGV (in `memcpy`,
/// under `Process.run`): `make test` crashed that way once in a whole run. This type closes the
/// child's descriptors from 3 up with glibc's `posix_spawn_file_actions_addclosefrom_np` when the
/// C library has it, and otherwise from a `/proc/self/fd` listing read without the over-read.
///
/// ```swift
/// let process = SpawnedProcess()
/// process.executableURL = URL(fileURLWithPath: "/bin/sh")
/// process.arguments = ["-c", "exit 3"]
/// try process.run()
/// process.waitUntilExit()
/// assert(process.terminationReason == .exit && process.terminationStatus == 3)
/// ```
public final class SpawnedProcess: @unchecked Sendable {
    /// How the process ended: it exited, or a signal ended it.
    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without the program's name.
    public var arguments: [String]?
    /// Whether its argv is empty, not even the program's name before ``arguments`` (which must
    /// then be nil): how some launchers start a program. Linux 5.18 and later then hand it one
    /// empty argument instead of none.
    public var emptyArgv = false
    /// Its whole environment; this process's when `nil`.
    public var environment: [String: String]?
    /// Standard input: a `Pipe` (the child reads its read end), a `FileHandle`, or `nil` for
    /// `/dev/null`; this process's own when left alone.
    public var standardInput: Any? = Inherited.shared
    /// Standard output: a `Pipe` (the child writes its write end), a `FileHandle`, or `nil` for
    /// `/dev/null`; this process's own when left alone.
    public var standardOutput: Any? = Inherited.shared
    /// Standard error, as ``standardOutput``.
    public var standardError: Any? = Inherited.shared

    private let lock = NSLock()
    private var pid: pid_t = 0
    /// The raw `waitpid` status once the child has been reaped.
    private var waitStatus: Int32?

    /// The marker of a standard stream left as this process's own.
    public final class Inherited: @unchecked Sendable {
        static let shared = Inherited()
    }

    public init() {}

    /// The child's process id (0 before ``run()``).
    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// Starts the child. Throws when it cannot be spawned (no such file, not executable).
    public func run() throws {
        guard let executableURL else { throw SpawnError(call: "run", code: EINVAL, path: "(no executable)") }
        precondition(lock.withLock { pid } == 0, "SpawnedProcess.run() called twice")
        let path = executableURL.path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, as Foundation's Process does: a terminal's Ctrl-C stays with the
        // tests. And no blocked signal: the test runs on a worker thread that blocks most of them,
        // and a child would inherit that mask (a SIGTERM would stay pending forever). Signals this
        // process ignores stay ignored in the child (SIGPIPE, see `ChildProcess`), as with Process.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)

        // The ends of pipes the child uses, closed here once it runs.
        var childEnds: [FileHandle] = []
        func wire(_ stream: Any?, to target: Int32, childReads: Bool) {
            switch stream {
            case is Inherited:
                return
            case let pipe as Pipe:
                let end = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
                childEnds.append(end)
            case let handle as FileHandle where handle !== FileHandle.nullDevice && handle.fileDescriptor >= 0:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", childReads ? O_RDONLY : O_WRONLY, 0)
            }
        }
        wire(standardInput, to: STDIN_FILENO, childReads: true)
        wire(standardOutput, to: STDOUT_FILENO, childReads: false)
        wire(standardError, to: STDERR_FILENO, childReads: false)
        // Nothing else of this process reaches the child (the dup2 sources above are closed after
        // they were duplicated: file actions run in order).
        if let closeFrom = Self.addCloseFrom {
            _ = closeFrom(&actions, 3)
        } else {
            for fd in Self.openDescriptors() where fd >= 3 {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
        }

        precondition(!emptyArgv || arguments == nil, "SpawnedProcess: arguments with an empty argv")
        let argv = CStringArray(emptyArgv ? [] : [path] + (arguments ?? []))
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv.pointers, envp.pointers)
        guard rc == 0 else { throw SpawnError(call: "posix_spawn", code: rc, path: path) }
        lock.withLock { pid = child }
        for end in childEnds { try? end.close() }
    }

    /// Whether the child has been started and has not ended yet (reaps it when it has).
    public var isRunning: Bool {
        lock.withLock {
            guard pid != 0, waitStatus == nil else { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status }
            return waitStatus == nil
        }
    }

    /// Waits until the child has ended.
    public func waitUntilExit() {
        let child = lock.withLock { waitStatus == nil ? pid : 0 }
        guard child != 0 else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(child, &status, 0)
            if result == child { lock.withLock { if waitStatus == nil { waitStatus = status } }; return }
            if result == -1 && errno == EINTR { continue }
            // Reaped by another thread's `isRunning` or `waitUntilExit`: wait for its record.
            while lock.withLock({ waitStatus == nil }) { usleep(1_000) }
            return
        }
    }

    /// Sends SIGTERM, when the child is still running.
    public func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    /// Why the child ended. Only after it ended.
    public var terminationReason: TerminationReason {
        let status = ended()
        return status & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// The exit status, or the signal that ended the child. Only after it ended.
    public var terminationStatus: Int32 {
        let status = ended()
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    private func ended() -> Int32 {
        guard let status = lock.withLock({ waitStatus }) else {
            preconditionFailure("SpawnedProcess: the child has not ended (call waitUntilExit() first)")
        }
        return status
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let addCloseFrom = CLibrary.function(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// The open descriptors, from `/proc/self/fd`: each name read in place, up to its NUL.
    public static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return Array(3..<Int32(getdtablesize())) }
        defer { closedir(directory) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            // The name where it lies: the record is only as long as the name and its NUL.
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if let fd = Int32(name), fd != dirfd(directory) { descriptors.append(fd) }
        }
        return descriptors
    }
}

/// Why a child process could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public let path: String
    public var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}

/// A NULL-terminated array of C strings, freed with it.
private final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (i, string) in strings.enumerated() { pointers[i] = strdup(string) }
        pointers[strings.count] = nil
    }

    deinit {
        for i in 0..<count { free(pointers[i]) }
        pointers.deallocate()
    }
}
