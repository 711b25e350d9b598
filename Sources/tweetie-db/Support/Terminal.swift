import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What standard output and standard error are connected to.
///
/// ```swift
/// let columns = Terminal.width ?? .max   // nil: not a terminal and no COLUMNS
/// ```
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
