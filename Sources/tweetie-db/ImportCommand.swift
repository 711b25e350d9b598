import ArgumentParser
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load an NDJSON export, all or nothing.",
        discussion: "Every line is checked. The first bad line stops the import with its line number and the reason, and the database is left exactly as it was.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The export file to read, or - for standard input.")
    var file: String

    @Option(help: "merge keeps stored records and adds or overwrites; replace makes the database exactly the file.")
    var mode: ImportModeArgument = .merge

    @Option(help: "The longest line accepted, in bytes.")
    var maxLineBytes: Int = 1 << 20

    enum ImportModeArgument: String, ExpressibleByArgument, CaseIterable { case merge, replace }

    func validate() throws {
        guard maxLineBytes >= 1024 else { throw ValidationError("--max-line-bytes must be at least 1024.") }
        if file != "-", !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read '\(file)': no such readable file.")
        }
    }

    func run() throws {
        try reportingErrors {
            let fd = file == "-" ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError("cannot open \(file): \(String(cString: strerror(errno)))") }
            defer { if fd != STDIN_FILENO { close(fd) } }
            let store = try database.openForWriting()
            defer { store.close() }
            let progress = ProgressBar("importing")
            defer { progress.finish() }
            let summary = try store.importNDJSON(from: fd, mode: mode == .merge ? .merge : .replace, maxLineBytes: maxLineBytes) { records, _ in
                progress.update(records, of: nil)
            }
            progress.finish()
            let parts = summary.perCollection.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            Out.error("imported \(summary.records) records (\(parts.isEmpty ? "none" : parts)): \(summary.counts.inserted) new, \(summary.counts.modified) updated, \(summary.counts.unchanged) unchanged")
        }
    }
}
