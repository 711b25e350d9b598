import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a subcommand prints records.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson

    /// Table on a terminal, NDJSON otherwise.
    static var automatic: OutputFormat { Terminal.isTerminal(STDOUT_FILENO) ? .table : .ndjson }
}

enum Terminal {
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The columns a table may take: `$COLUMNS` when set to a positive number, else the width of
    /// the terminal on standard output; nil (no limit: nothing is cut) when standard output is
    /// not a terminal and `COLUMNS` is not set.
    static var width: Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if isTerminal(STDOUT_FILENO), ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return isTerminal(STDOUT_FILENO) ? 80 : nil
    }
}

/// Writes to stdout without Foundation's buffering surprises.
///
/// Rules: every command writes its standard output through `Out`, and every write is checked. A
/// reader that went away (`EPIPE`, as with `| head`) ends the process quietly with status 0; any
/// other failure (`/dev/full`, a full disk, an I/O error) ends it with a message on stderr and
/// status 1, so that a script never mistakes a lost output for a successful command.
/// ``checkFinalFlush()`` covers what went through the C library's buffer instead (help text).
enum Out {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 {
                let code = n < 0 ? errno : EIO
                if code == EINTR { continue }
                if code == EPIPE { Glibc.exit(0) }  // the reader went away (e.g. `| head`)
                failed(code)
            }
            offset += n
        }
    }

    static func line(_ text: String = "") { write(text + "\n") }

    static func error(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    /// Flushes the C library's standard output buffer at exit and fails the process, with a
    /// message, when that flush failed; a no-op when nothing is
    /// buffered. Installed once, first thing in `main`.
    static func checkFinalFlush() {
        atexit {
            if fflush(nil) != 0 {
                Out.failed(errno == 0 ? EIO : errno, exit: _exit)
            }
        }
    }

    private static func failed(_ code: Int32, exit: (Int32) -> Never = Glibc.exit) -> Never {
        let message = "Error: cannot write to standard output: \(String(cString: strerror(code)))\n"
        var bytes = Array(message.utf8)
        _ = Glibc.write(STDERR_FILENO, &bytes, bytes.count)
        exit(1)
    }
}

/// A one-line progress bar on stderr, shown only when stderr is a terminal.
final class ProgressBar {
    private let label: String
    private let enabled = Terminal.isTerminal(STDERR_FILENO)
    private var lastDraw = Date.distantPast

    init(_ label: String) { self.label = label }

    func update(_ done: Int, of total: Int?) {
        guard enabled, Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = Date()
        var line = "\r\(label) \(done)"
        if let total, total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            line = "\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total)"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

/// A plain text table with aligned columns.
///
/// Rules: columns are measured and padded by display width (``DisplayWidth``); a column whose
/// every cell is a number (or a byte size such as `1.5 MiB`) is right-aligned; the last column is
/// cut to the terminal width, with `…`, only when `width` is given (a table going to a pipe or
/// file is never cut).
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    /// Whether column `index` holds numbers only.
    func isNumeric(_ index: Int) -> Bool {
        !rows.isEmpty && rows.allSatisfy { row in
            index < row.count && row[index].wholeMatch(of: /-?[0-9][0-9,._]*( [KMGT]?i?B)?/) != nil
        }
    }

    func render(width: Int? = Terminal.width) -> String {
        var widths = headers.map(DisplayWidth.of)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        let fixed = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        if let width, let last = widths.indices.last { widths[last] = max(10, min(widths[last], width - fixed)) }
        let numeric = widths.indices.map(isNumeric)
        func format(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                let text = DisplayWidth.truncate(cell, to: widths[i])
                return i == row.count - 1 && !numeric[i] ? text : DisplayWidth.pad(text, to: widths[i], alignRight: numeric[i])
            }.joined(separator: "  ")
        }
        return ([format(headers)] + rows.map(format)).joined(separator: "\n") + "\n"
    }
}

/// Formats a byte count with binary units.
func formatBytes(_ bytes: Int) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
}
