import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The record lines of an import, readable again from the first one: a write body may run more
/// than once (after the map grows), and each run must see every record.
///
/// A regular file is read in place and seeked back. Anything that cannot seek — a pipe, a FIFO, a
/// terminal, a device — is first copied to a temporary file in `$TMPDIR` (default `/tmp`), created
/// `0600` and unlinked as soon as it is opened, so that it disappears when closed or when the
/// process dies; it takes as much space there as the input.
///
/// ```swift
/// var input = try ImportInput(after: reader)
/// defer { input.close() }
/// try input.rewind()
/// ```
struct ImportInput {
    /// Reads the record lines.
    var reader: LineReader
    /// The bytes of record lines (from the first one to the end of the input), known ahead.
    let size: Int
    /// Where the first record line starts, in the reader's offsets.
    private let firstRecord: Int
    /// The temporary copy of an input that cannot seek, closed by ``close()``.
    private let spool: Int32?

    /// Takes over `reader`, whose next line is the first record line, on `fileDescriptor`.
    init(after reader: LineReader, on fileDescriptor: Int32, maxLineBytes: Int) throws {
        var status = stat()
        if fstat(fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, lseek(fileDescriptor, 0, SEEK_CUR) >= 0 {
            self.reader = reader
            firstRecord = reader.offset
            size = max(0, Int(status.st_size) - Int(lseek(fileDescriptor, 0, SEEK_CUR)) + reader.bytesRead - reader.offset)
            spool = nil
            return
        }
        let directory = Self.temporaryDirectory
        let spool = try Self.makeSpoolFile(in: directory)
        do {
            var source = reader
            size = try source.copyRest(to: spool) { code in
                TransferError(line: nil, reason: "cannot copy the input to a temporary file in \(directory) (it cannot seek, and an import may need to read it twice): \(String(cString: strerror(code))); set TMPDIR to a directory with room, or import from a regular file")
            }
            guard lseek(spool, 0, SEEK_SET) == 0 else {
                throw TransferError(line: nil, reason: "cannot read back the temporary copy of the input in \(directory): \(String(cString: strerror(errno)))")
            }
        } catch {
            Glibc.close(spool)
            throw error
        }
        self.reader = LineReader(fileDescriptor: spool, maxLineBytes: maxLineBytes)
        firstRecord = 0
        self.spool = spool
    }

    /// Positions the reader on the first record line again.
    mutating func rewind() throws {
        try reader.rewind(to: firstRecord)
    }

    /// Closes (and so removes) the temporary copy, if one was made.
    func close() {
        if let spool { Glibc.close(spool) }
    }

    /// `$TMPDIR`, else `/tmp`.
    static var temporaryDirectory: String {
        let value = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return value.isEmpty ? "/tmp" : value
    }

    /// Creates an anonymous `0600` file in `directory`: created by `mkstemp`, unlinked at once,
    /// closed on exec.
    private static func makeSpoolFile(in directory: String) throws -> Int32 {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("tweetie-import-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw TransferError(line: nil, reason: "cannot create a temporary file in \(directory) to hold the input (it cannot seek, and an import may need to read it twice): \(String(cString: strerror(errno))); set TMPDIR to a writable directory, or import from a regular file")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
