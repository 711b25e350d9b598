import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr, shown only when stderr is a terminal: the command-line
/// tools' one bar (tweetie-db's import, export, verify and bench, tweetie-replicate's download).
///
/// Rules: it shows what is done, of what total when known (with a bar), and the rate since the
/// bar was created; it redraws at most ten times a second, and ``finish()`` erases it. It may be
/// updated from any thread.
package final class ProgressBar: Sendable {
    private let label: String
    private let unit: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private let start = Date()
    private let lastDraw = Mutex(Date.distantPast)

    package init(_ label: String, unit: String = "records") {
        self.label = label
        self.unit = unit
    }

    package func update(_ done: Int, of total: Int?) {
        guard enabled else { return }
        let now = Date()
        let draw = lastDraw.withLock { last in
            guard now.timeIntervalSince(last) > 0.1 || done == total else { return false }
            last = now
            return true
        }
        guard draw else { return }
        let rate = Double(done) / max(now.timeIntervalSince(start), 0.001)
        let rateText = rate >= 10_000 ? String(format: "%.0fk", rate / 1000) : String(format: "%.0f", rate)
        var line = "\r\u{1B}[2K\(label) \(done) \(unit), \(rateText)/s"
        if let total, total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            line = "\r\u{1B}[2K\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total) \(unit), \(rateText)/s"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    package func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
