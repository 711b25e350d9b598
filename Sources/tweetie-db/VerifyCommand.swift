import ArgumentParser
import Foundation
import TweetieSync

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every index against its records and the change log's sanity.",
        discussion: "Exits with status 1 when anything is inconsistent, after listing every problem found.")

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            let report = try store.verify()
            let records = report.records.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            if report.problems.isEmpty {
                Out.line("ok: \(records); \(report.indexEntries) index entries; \(report.changeLogEntries) change-log entries")
                return
            }
            for problem in report.problems { Out.error(problem) }
            Out.error("verify found \(report.problems.count) problem(s) in \(store.path)")
            throw ExitCode(1)
        }
    }
}
