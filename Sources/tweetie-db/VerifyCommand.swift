import ArgumentParser
import Foundation
import TweetieSync

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the pages of data.mdb, every index against its records, and the change log's sanity.",
        discussion: """
            Exits with status 1 when anything is inconsistent, after listing every problem found. \
            LMDB trusts its pages, and a damaged page can crash the process reading it, so verify \
            first checks the structure of every page (reading the file, not through LMDB) and \
            reports a damaged page as corruption. As a second safety net the check runs in a child \
            process, and a crash of that process is reported as corruption too.
            """)

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .customLong("in-process"), help: ArgumentHelp("Check in this process, without the child-process safety net.", visibility: .hidden))
    var inProcess = false

    func run() throws {
        if !inProcess {
            try runInChild()
            return
        }
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            let report = try store.verify()
            let records = report.records.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            if report.problems.isEmpty {
                Out.line("ok: \(records); \(report.indexEntries) index entries; \(report.changeLogEntries) change-log entries; \(report.pagesChecked) pages")
                return
            }
            for problem in report.problems { Out.error(problem) }
            Out.error("verify found \(report.problems.count) problem(s) in \(store.path)")
            throw ExitCode(1)
        }
    }

    /// Runs `tweetie-db verify --in-process` on the same database, passing its output through, and
    /// turns a death by signal into a one-sentence corruption report.
    private func runInChild() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["verify", "--in-process", "--db", database.resolvedPath]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // Under a sanitizer build, let a crash end the child by its signal, as it does normally.
        for variable in ["ASAN_OPTIONS", "TSAN_OPTIONS"] {
            let options = environment[variable].map { $0 + ":" } ?? ""
            environment[variable] = options + "handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigill=0"
        }
        process.environment = environment
        do {
            try process.run()
        } catch {
            Out.error("Error: verify cannot start its checking process: \(error.localizedDescription)")
            throw ExitCode(2)
        }
        process.waitUntilExit()
        switch process.terminationReason {
        case .exit:
            if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
        case .uncaughtSignal:
            let signal = process.terminationStatus
            let name = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP"][signal] ?? "signal \(signal)"
            Out.error("Error: \(database.resolvedPath) is corrupt: reading it crashed the checking process (\(name)), which LMDB does on a damaged page; restore the database from a backup (tweetie-db backup)")
            throw ExitCode(1)
        @unknown default:
            throw ExitCode(1)
        }
    }
}
