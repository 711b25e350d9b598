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
            // What this import creates: removed again when it fails, so no empty database is left.
            let path = database.resolvedPath
            let created = Self.missingDirectories(path)
            let newDatabase = !FileManager.default.fileExists(atPath: path + "/data.mdb")
            do {
                try importRecords(from: fd, mode: importMode)
            } catch {
                if newDatabase { Self.removeDatabase(at: path, createdDirectories: created) }
                throw error
            }
        }
    }

    private func importRecords(from fd: Int32, mode importMode: ImportMode) throws {
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
        let total = Self.announcedRecords(in: fd)
        let summary = try store.importNDJSON(from: fd, mode: importMode, maxLineBytes: maxLineBytes) { records, _ in
            progress.update(records, of: total)
        }
        progress.finish()
        let parts = summary.perCollection.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        Out.error("imported \(summary.records) records (\(parts.isEmpty ? "none" : parts)): \(summary.counts.inserted) new, \(summary.counts.modified) updated, \(summary.counts.unchanged) unchanged")
    }

    /// The records the header of the export on `fd` announces, read with `pread` (so the
    /// import still reads from the start); nil when the input cannot seek (a pipe) or the first
    /// line is not a header (the import says why).
    static func announcedRecords(in fd: Int32) -> Int? {
        guard lseek(fd, 0, SEEK_CUR) >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0, let newline = bytes[0..<n].firstIndex(of: 0x0A),
              let header = try? JSONDecoder().decode(ExportHeader.self, from: Data(bytes[0..<newline])) else { return nil }
        return header.collections.reduce(0) { $0 + $1.count }
    }

    /// `path` and its ancestors that do not exist yet, innermost first.
    static func missingDirectories(_ path: String) -> [String] {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != ".", current != "/", !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = Paths.parent(of: current)
        }
        return missing
    }

    /// Removes the database files (data.mdb, lock.mdb, changes.notify) a failed import created at `path`, then the directories it
    /// created, innermost first; a directory that holds anything else stays.
    static func removeDatabase(at path: String, createdDirectories: [String]) {
        for file in ["data.mdb", "lock.mdb", "changes.notify"] { unlink(path + "/" + file) }
        for directory in createdDirectories { rmdir(directory) }
    }
}
