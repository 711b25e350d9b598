import ArgumentParser
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every record as NDJSON: a header line, then one record per line.",
        discussion: "The export is one consistent snapshot, streamed in constant memory. Importing it into an empty database and exporting again gives the same bytes.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: [.short, .long], help: "The file to write. Without it, the export goes to standard output.")
    var output: String?

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            var fd = STDOUT_FILENO
            var temporary: String?
            if let output {
                // Write next to the destination and rename at the end: never a half-written file.
                let partial = output + ".partial-\(getpid())"
                fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw CLIError("cannot create \(output): \(String(cString: strerror(errno)))") }
                temporary = partial
            }
            let progress = ProgressBar("exporting")
            do {
                let count = try store.exportNDJSON(progress: { progress.update($0, of: $1) }) { chunk in
                    var offset = 0
                    while offset < chunk.count {
                        let n = write(fd, chunk.baseAddress! + offset, chunk.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            throw CLIError("cannot write the export: \(String(cString: strerror(errno)))")
                        }
                        offset += n
                    }
                }
                progress.finish()
                if let temporary, let output {
                    guard fsync(fd) == 0, close(fd) == 0, rename(temporary, output) == 0 else {
                        throw CLIError("cannot finish writing \(output): \(String(cString: strerror(errno)))")
                    }
                    Out.error("exported \(count) records to \(output)")
                }
            } catch {
                progress.finish()
                if let temporary { close(fd); unlink(temporary) }
                throw error
            }
        }
    }
}
