import ArgumentParser
import Foundation
import TweetieSync

// VerifyCommand, with VerifyJSON: the shape of its `--format json` report, which nothing else uses.

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the pages of data.mdb, every index against its records, and the change log's sanity.",
        discussion: """
            Examples:
              tweetie-db verify
              tweetie-db verify --db /backups/2026-11-25 && echo consistent

            Exits with status 3 when anything is inconsistent, after listing every problem found, \
            with 2 when it could not conclude, and with 1 when there is no database to check. \
            LMDB trusts its pages, and a damaged page can crash the process reading it, so verify \
            first checks the structure of every page (reading the file, not through LMDB) and \
            reports a damaged page as corruption. As a second safety net the check runs in a child \
            process, and a crash of that process is reported as corruption too.

            With --format json (the default when piped) the result is one JSON object on stdout, \
            {"ok":…,"path":…,"problems":[…],"records":{…},"indexEntries":…,"changeLogEntries":…,"pagesChecked":…}, \
            for status 0 and 3 alike (a crash or damaged page found before the counts gives \
            "ok":false with the problem and no counts); statuses 1 and 2 print only an error on stderr.
            """)

    @OptionGroup var database: ReadDatabaseOptions

    @Option(help: OutputFormat.help(for: .report))
    var format: OutputFormat?

    @Flag(name: .customLong("in-process"), help: ArgumentHelp("Check in this process, without the child-process safety net.", visibility: .hidden))
    var inProcess = false

    func run() throws {
        if !inProcess {
            try runInChild()
            return
        }
        do {
            try verifyInProcess()
        } catch let error as CLIError where error.isDamage {
            Out.error("Error: \(error)")
            try printDamage(error.description)
            throw ExitCode(ExitStatus.problemsFound)
        }
    }

    private func verifyInProcess() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            let progress = ProgressBar("verifying", unit: "records and index entries")
            let report = try store.verify { progress.update($0, of: $1) }
            progress.finish()
            let records = report.records.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            try printRecord(VerifyJSON(path: store.path, report: report), format: OutputFormat.resolve(format, for: .report)) {
                // The problems go to stderr: a table says only that all is well.
                report.problems.isEmpty
                    ? "ok: \(records); \(report.indexEntries) index entries; \(report.changeLogEntries) change-log entries; \(report.pagesChecked) pages\n"
                    : ""
            }
            if report.problems.isEmpty { return }
            for problem in report.problems { Out.error(problem) }
            Out.error("verify found \(report.problems.count) problem(s) in \(store.path)")
            throw ExitCode(ExitStatus.problemsFound)
        }
    }

    /// Runs `tweetie-db verify --in-process` on the same database, passing its output through, and
    /// turns a death by signal into a one-sentence corruption report.
    ///
    /// The child is started with `posix_spawn` and waited for with `waitpid` on this thread:
    /// Foundation's `Process` needs extra threads (which hang under a tight `ulimit -v`) and
    /// file-descriptor actions that fail under a small `ulimit -n`.
    private func runInChild() throws {
        let path = database.resolvedPath
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // Under a sanitizer build, let a crash end the child by its signal, as it does normally.
        for variable in ["ASAN_OPTIONS", "TSAN_OPTIONS"] {
            let options = environment[variable].map { $0 + ":" } ?? ""
            environment[variable] = options + "handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigill=0"
        }
        let arguments = [executable, "verify", "--in-process", "--format", OutputFormat.resolve(format, for: .report).rawValue, "--db", path]
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let code = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in posix_spawn(&pid, executable, nil, nil, argv, envp) }
        }
        guard code == 0 else {
            Out.error("Error: verify cannot start its checking process (\(executable)): \(String(cString: strerror(code))) (errno \(code))")
            throw ExitCode(ExitStatus.inconclusive)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                Out.error("Error: verify lost its checking process: \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.inconclusive)
            }
        }
        let signal = status & 0x7F
        if signal == 0 {
            let exitStatus = (status >> 8) & 0xFF
            if exitStatus != 0 { throw ExitCode(exitStatus) }
            return
        }
        let name = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL"][signal] ?? "signal \(signal)"
        var fs = statvfs()
        let free = statvfs(path, &fs) == 0 ? Int(fs.f_bavail) * Int(fs.f_frsize) : nil
        if signal == SIGBUS, let free, free < 1 << 20 {
            // A write through a memory map of a full file system ends in SIGBUS: that is the disk.
            Out.error("Error: the checking process of \(path) crashed (SIGBUS) while its file system is full (\(free) bytes free); this is a full disk, not proof of corruption: free some space and run verify again")
            throw ExitCode(ExitStatus.inconclusive)
        }
        if signal == SIGKILL {
            Out.error("Error: the checking process of \(path) was killed (SIGKILL), perhaps for lack of memory; nothing was concluded: run verify again")
            throw ExitCode(ExitStatus.inconclusive)
        }
        let message = "\(path) is corrupt: reading it crashed the checking process (\(name)), which LMDB does on a damaged page; restore the database from a backup (tweetie-db backup)"
        Out.error("Error: \(message)")
        try printDamage(message)
        throw ExitCode(ExitStatus.problemsFound)
    }

    /// In a machine format, prints the result of a check that found damage before it could count
    /// anything: `{"ok":false,"path":…,"problems":[message]}`; on a table, nothing more.
    private func printDamage(_ message: String) throws {
        let format = OutputFormat.resolve(format, for: .report)
        guard format != .table else { return }
        try printRecord(VerifyJSON(path: database.resolvedPath, problems: [message]), format: format) { "" }
    }
}

/// Calls `body` with a NULL-terminated C array of the strings, valid only during the call.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

/// `verify --format json`: whether the database is consistent, where it is, the problems found
/// and, when the check ran to its end, what it counted.
///
/// ```swift
/// try printRecord(VerifyJSON(path: store.path, report: report), format: .json) { "" }
/// ```
struct VerifyJSON: Encodable {
    var ok: Bool
    var path: String
    var problems: [String]
    /// The counts, when the check ran to its end.
    var report: VerificationReport?

    init(path: String, report: VerificationReport) {
        ok = report.problems.isEmpty
        self.path = path
        problems = report.problems
        self.report = report
    }

    init(path: String, problems: [String]) {
        ok = problems.isEmpty
        self.path = path
        self.problems = problems
    }

    private enum CodingKeys: String, CodingKey { case ok, path, problems }

    func encode(to encoder: any Encoder) throws {
        try report?.encode(to: encoder)   // with its problems
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(path, forKey: .path)
        if report == nil { try container.encode(problems, forKey: .problems) }
    }
}
