import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered output: every line goes straight to the file descriptor with write(2), so that a
/// process killed right after printing has already handed the line to the kernel.
enum Out {
    /// Writes `text` plus a newline to stdout in as few write(2) calls as possible.
    static func line(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` plus a newline to stderr.
    static func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { Glibc.exit(0) }
                    return
                }
                offset += n
            }
        }
    }
}

extension CrashCommand.SummaryFormat {
    /// Prints a campaign's summary (as sorted-key JSON, or as `text`'s lines followed by the
    /// failures), then exits with status 1 when there are failures.
    func report<Summary: Encodable>(_ summary: Summary, failures: [String], text: () -> [String]) throws {
        switch self {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            Out.line(String(decoding: try encoder.encode(summary), as: UTF8.self))
        case .text:
            for line in text() { Out.line(line) }
            Out.line("  failures: \(failures.count)")
            for failure in failures { Out.line("    \(failure)") }
        }
        if !failures.isEmpty { throw ExitCode(1) }
    }
}
