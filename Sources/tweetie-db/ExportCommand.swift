import ArgumentParser
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

// ExportCommand, with ExportDestination: its private output file (written as a temporary file that is
// renamed over it at the end).

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every record as NDJSON: a header line, then one record per line.",
        discussion: """
            Examples:
              tweetie-db export -o tweets.ndjson
              tweetie-db export --collection users -o users.ndjson
              tweetie-db export | gzip > tweets.ndjson.gz
              tweetie-db export | tweetie-db import - --db ~/copy

            The export is one consistent snapshot, streamed in constant memory. Importing it into \
            an empty database and exporting again gives the same bytes. Every id is written as a \
            number and as a string twin (idStr, authorIdStr, inReplyToIdStr); scripts should read \
            the strings, which survive tools that round large numbers.
            """)

    @OptionGroup var database: ReadDatabaseOptions

    @Option(name: [.short, .long], help: ArgumentHelp(
        "The file to write; - or none for standard output.",
        discussion: "A regular file (or a new path) is written beside itself, owner-only (0600), and renamed into place only when complete. A device or FIFO is written into; a symbolic link is followed to its target."))
    var output: String?

    @Option(help: ArgumentHelp("Export only this collection (tweets or users).",
                               discussion: "The header then lists that collection only, so the file imports as it is (with --mode merge, the other collections are kept)."))
    var collection: String?

    func run() throws {
        try reportingErrors {
            let store = try database.openExisting()
            defer { store.close() }
            if let collection, !store.collectionNames.contains(collection) {
                throw ValidationError("--collection \(collection): no such collection (there are: \(store.collectionNames.joined(separator: ", "))).")
            }
            let destination = try output.flatMap { $0 == "-" ? nil : try ExportDestination.open($0) }
            let fd = destination?.fileDescriptor ?? STDOUT_FILENO
            let progress = ProgressBar("exporting")
            var filter = collection.map(CollectionFilter.init)
            do {
                var count = try store.exportNDJSON(progress: { progress.update($0, of: $1) }) { exported in
                  try CollectionFilter.apply(&filter, to: exported) { chunk in
                    var offset = 0
                    while offset < chunk.count {
                        let n = write(fd, chunk.baseAddress! + offset, chunk.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            throw CLIError("cannot write the export to \(destination?.path ?? "standard output"): \(String(cString: strerror(errno)))")
                        }
                        offset += n
                    }
                  }
                }
                if let filter { count = filter.records }
                progress.finish()
                if let destination {
                    try destination.finish()
                    Out.error("exported \(count) records to \(destination.path)")
                }
            } catch {
                progress.finish()
                destination?.abandon()
                throw error
            }
        }
    }
}

/// Where `export --output PATH` writes.
///
/// Rules: a regular file, or a path where nothing is yet, is never half-written: the export goes
/// to `TARGET.partial-PID` (0600, removed on failure and on SIGINT, SIGTERM, SIGHUP and SIGQUIT),
/// is flushed to disk and is renamed over the target only when complete. A character or block
/// device, a FIFO or a socket is opened and written in place — never replaced by a file. A
/// symbolic link stays: its target is written (by the same rules); a link whose target does not
/// exist is refused. A directory is refused.
private struct ExportDestination {
    /// The path the user named.
    let path: String
    /// The file written: `path`, or the target of the symbolic link `path`.
    let target: String
    /// The temporary file renamed over `target` at the end, for regular files and new paths.
    let temporary: String?
    let fileDescriptor: Int32

    static func open(_ path: String) throws -> ExportDestination {
        try PathCheck.validate(path, role: "--output")
        var target = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw CLIError("cannot export to \(path): it is a directory; name a file")
            default:
                // A device, FIFO or socket: write into it (a FIFO waits here for its reader).
                let fd = Glibc.open(target, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw CLIError("cannot open \(path) for writing: \(String(cString: strerror(errno)))") }
                return ExportDestination(path: path, target: target, temporary: nil, fileDescriptor: fd)
            }
        } else if errno != ENOENT {
            throw CLIError("cannot export to \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = target + ".partial-\(getpid())"
        InterruptCleanup.register(file: temporary)
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0, fchmod(fd, 0o600) == 0 else {
            let message = "cannot create \(temporary) (to be renamed to \(target) when complete): \(String(cString: strerror(errno)))"
            if fd >= 0 { close(fd); unlink(temporary) }
            InterruptCleanup.unregister(temporary)
            throw CLIError(message)
        }
        return ExportDestination(path: path, target: target, temporary: temporary, fileDescriptor: fd)
    }

    /// Completes the export: flushes and renames the temporary file, or closes the device. On
    /// failure the caller calls ``abandon()``.
    func finish() throws {
        guard let temporary else {
            guard close(fileDescriptor) == 0 else { throw CLIError("cannot finish writing \(path): \(String(cString: strerror(errno)))") }
            return
        }
        guard fsync(fileDescriptor) == 0, close(fileDescriptor) == 0, rename(temporary, target) == 0 else {
            throw CLIError("cannot finish writing \(target): \(String(cString: strerror(errno)))")
        }
        InterruptCleanup.unregister(temporary)
        let directory = Glibc.open(Paths.parent(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { _ = fsync(directory); close(directory) }
    }

    /// Gives up after a failure: closes, and removes the temporary file.
    func abandon() {
        close(fileDescriptor)
        if let temporary {
            unlink(temporary)
            InterruptCleanup.unregister(temporary)
        }
    }
}
