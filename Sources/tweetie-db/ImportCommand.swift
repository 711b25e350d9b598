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
        discussion: "Examples:\n  tweetie-db import tweets.ndjson\n  gunzip -c tweets.ndjson.gz | tweetie-db import -\n  tweetie-db import tweets.ndjson --mode replace --dry-run\n\nEvery line is checked. The first bad line stops the import with its line number and the reason, and the database is left exactly as it was. --mode replace removes every stored record first: on a terminal it asks, elsewhere it needs --force; --dry-run prints, per collection, how many records would be added, replaced and deleted.")

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var destructive: DestructiveOptions

    @Argument(help: ArgumentHelp("The export file to read, or - for standard input.",
                                 discussion: "Standard input that cannot seek (a pipe) is copied to an unlinked temporary file in $TMPDIR (default /tmp) before the import, because the import may need to read it twice; it needs as much free space there as the input."))
    var file: String

    @Option(help: "merge keeps stored records and adds or overwrites; replace makes the database exactly the file.")
    var mode: ImportModeArgument = .merge

    @Option(help: ArgumentHelp("The longest line accepted, in bytes (1024…1073741824).",
                               discussion: "Memory for a line grows with the line, up to this bound; it is not taken ahead."))
    var maxLineBytes: Int = 1 << 20

    /// The range of `--max-line-bytes`: 1 KiB to 1 GiB.
    static let maxLineBytesRange = 1024...(1 << 30)

    enum ImportModeArgument: String, ExpressibleByArgument, CaseIterable { case merge, replace }

    func validate() throws {
        guard Self.maxLineBytesRange.contains(maxLineBytes) else {
            throw ValidationError("--max-line-bytes must be between \(Self.maxLineBytesRange.lowerBound) and \(Self.maxLineBytesRange.upperBound) (1 GiB), got \(maxLineBytes).")
        }
        if file != "-", !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read '\(file)': no such readable file.")
        }
    }

    func run() throws {
        try reportingErrors {
            let fd = file == "-" ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CLIError("cannot open \(file): \(String(cString: strerror(errno)))") }
            defer { if fd != STDIN_FILENO { close(fd) } }
            let importMode: ImportMode = mode == .merge ? .merge : .replace
            if destructive.dryRun {
                let exists = FileManager.default.fileExists(atPath: database.resolvedPath + "/data.mdb")
                let store = exists ? try database.openExisting() : nil
                defer { store?.close() }
                let plan = try ImportPlan(reading: fd, into: store, mode: importMode)
                Out.line(plan.description.isEmpty ? "no records" : plan.description)
                Out.error("dry run: nothing was changed in \(database.resolvedPath)")
                return
            }
            let store = try database.openForWriting()
            defer { store.close() }
            if importMode == .replace {
                let stored = try ImportPlan.stored(in: store).filter { $0.value > 0 }.sorted { $0.key < $1.key }
                if !stored.isEmpty {
                    let what = stored.map { "\($0.value) \($0.key)" }.joined(separator: " and ")
                    try destructive.confirm("delete the \(what) stored in \(store.path) and replace them with \(file == "-" ? "standard input" : file)", canAsk: file != "-")
                }
            }
            let progress = ProgressBar("importing")
            defer { progress.finish() }
            let summary = try store.importNDJSON(from: fd, mode: importMode, maxLineBytes: maxLineBytes) { records, _ in
                progress.update(records, of: nil)
            }
            progress.finish()
            let parts = summary.perCollection.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            Out.error("imported \(summary.records) records (\(parts.isEmpty ? "none" : parts)): \(summary.counts.inserted) new, \(summary.counts.modified) updated, \(summary.counts.unchanged) unchanged")
        }
    }
}
