import Foundation
import TweetieTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs `tweetie-db` with its standard input, output and error on a pseudo-terminal of a fixed
/// size, collecting everything it writes.
final class PseudoTerminalRun: @unchecked Sendable {
    let process = SpawnedProcess()
    private let master: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private let reader = DispatchGroup()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `tweetie-db arguments…` on a new pseudo-terminal of `rows` × `columns`.
    init(_ arguments: [String], rows: UInt16, columns: UInt16, environment: [String: String] = [:]) throws {
        master = Self.openpt(O_RDWR | O_NOCTTY)
        var name = [CChar](repeating: 0, count: 128)
        guard master >= 0, Self.grantpt(master) == 0, Self.unlockpt(master) == 0, Self.ptsname_r(master, &name, name.count) == 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open \(slavePath): \(String(cString: strerror(errno)))") }
        defer { close(slave) }
        try resize(rows: rows, columns: columns)
        process.executableURL = CLI.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TWEETIE_DB")
        env["TERM"] = "xterm"
        // A crash report must not wait for a key press on the terminal.
        env["SWIFT_BACKTRACE"] = "interactive=no"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let master = master
        DispatchQueue.global().async(group: reader) { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                // EIO: every copy of the terminal's other side is closed (the program ended).
                guard n > 0 else { return }
                lock.withLock { bytes += buffer[0..<n] }
            }
        }
    }

    deinit { close(master) }

    // Glibc's module does not export the pseudo-terminal functions of <stdlib.h> (they need
    // _XOPEN_SOURCE): look them up in the C library.
    private static func libc<T>(_ name: String, as type: T.Type) -> T {
        guard let function = CLibrary.function(name, as: type) else { fatalError("the C library has no \(name)") }
        return function
    }
    private static let openpt = libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    private static let grantpt = libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    private static let unlockpt = libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    private static let ptsname_r = libc("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)

    /// Sets the terminal's size, as a terminal window does when the user resizes it.
    func resize(rows: UInt16, columns: UInt16) throws {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            throw Failure(description: "TIOCSWINSZ failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Types `text` on the terminal's keyboard: the program reads it from standard input.
    func type(_ text: String) throws {
        var bytes = Array(text.utf8)
        guard write(master, &bytes, bytes.count) == bytes.count else {
            throw Failure(description: "cannot write to the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
    }

    /// Everything written so far, as text.
    var output: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// How many bytes were written so far.
    var byteCount: Int { lock.withLock { bytes.count } }

    /// Waits until the output contains `text` (at most `timeout` seconds).
    func wait(for text: String, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !output.contains(text) {
            guard Date() < deadline, process.isRunning else {
                throw Failure(description: "\(text.debugDescription) did not appear (program \(process.isRunning ? "still running" : "ended")); output so far:\n\(output.suffix(2000).debugDescription)")
            }
            usleep(20_000)
        }
    }

    /// Waits for the program to end (killing it after `timeout` seconds) and for its last output.
    func finish(timeout: Double = 120) throws -> (status: Int32, output: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                throw Failure(description: "tweetie-db \((process.arguments ?? []).joined(separator: " ")) did not finish in time")
            }
            usleep(20_000)
        }
        reader.wait()
        return (process.terminationStatus, output)
    }
}

/// A tiny VT100 screen: enough of the sequences `tweetie-db demo` writes (cursor position, erase
/// in line and display, attributes, the alternate screen, cursor visibility) to tell what a
/// terminal shows. Each character takes one cell; text past the right edge is dropped.
struct VirtualTerminal {
    private(set) var rows: Int, columns: Int
    private(set) var normal: [[Character]]
    private(set) var alternate: [[Character]]
    private(set) var onAlternate = false
    private(set) var cursorVisible = true
    /// The alternate screen each time the program left it.
    private(set) var leftAlternate: [[String]] = []
    /// The alternate screen each time the cursor went home to draw a new frame over it or the
    /// program left it, with the characters written past its right edge in that frame.
    private(set) var frames: [(lines: [String], overflow: Int)] = []
    /// Characters written past the right edge of the alternate screen since the cursor last went
    /// home, and that count each time the program left the alternate screen.
    private(set) var overflow = 0, overflowWhenLeft: [Int] = []
    /// Sequences this interpreter does not know (a test fails on them).
    private(set) var unknown: [String] = []
    private var row = 0, column = 0
    /// The normal screen's cursor, saved while the alternate screen is shown (as xterm does for 1049).
    private var savedCursor = (row: 0, column: 0)

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        normal = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        alternate = normal
    }

    /// Changes the size as a terminal window does: lines and columns beyond it are dropped, new
    /// ones are blank.
    mutating func resize(rows: Int, columns: Int) {
        func fitted(_ grid: [[Character]]) -> [[Character]] {
            (0..<rows).map { r in
                let line = r < grid.count ? Array(grid[r].prefix(columns)) : []
                return line + Array(repeating: " ", count: columns - line.count)
            }
        }
        normal = fitted(normal)
        alternate = fitted(alternate)
        self.rows = rows
        self.columns = columns
        row = min(row, rows - 1)
        column = min(column, columns - 1)
    }

    /// The lines of the screen shown now, trailing spaces removed.
    var lines: [String] { Self.text(onAlternate ? alternate : normal) }

    private static func text(_ grid: [[Character]]) -> [String] {
        grid.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    mutating func feed(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\u{1B}":
                guard characters.first == "[" else { unknown.append("ESC \(characters.first.map(String.init) ?? "")"); continue }
                characters.removeFirst()
                var parameters = ""
                while let next = characters.first, next.isASCII, let value = next.asciiValue, (0x30...0x3F).contains(value) {
                    parameters.append(next)
                    characters.removeFirst()
                }
                guard let final = characters.popFirst() else { return }
                apply(parameters, final)
            case "\r\n", "\n":
                if character == "\r\n" { column = 0 }
                if row == rows - 1 { scroll() } else { row += 1 }
            case "\r":
                column = 0
            default:
                if column < columns { put(character) } else if onAlternate { overflow += 1 }
                column += 1
            }
        }
    }

    private mutating func put(_ character: Character) {
        if onAlternate { alternate[row][column] = character } else { normal[row][column] = character }
    }

    private mutating func scroll() {
        let blank = Array(repeating: Character(" "), count: columns)
        if onAlternate { alternate = Array(alternate.dropFirst()) + [blank] } else { normal = Array(normal.dropFirst()) + [blank] }
    }

    private mutating func apply(_ parameters: String, _ final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch (parameters, final) {
        case ("?1049", "h"):
            savedCursor = (row, column)
            onAlternate = true
            alternate = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        case ("?1049", "l"):
            leftAlternate.append(Self.text(alternate))
            overflowWhenLeft.append(overflow)
            frames.append((Self.text(alternate), overflow))
            onAlternate = false
            (row, column) = (min(savedCursor.row, rows - 1), min(savedCursor.column, columns - 1))
        case ("?25", "l"): cursorVisible = false
        case ("?25", "h"): cursorVisible = true
        case (_, "H"):
            if onAlternate, (numbers.first ?? 1) ?? 1 == 1, (numbers.count > 1 ? numbers[1] : 1) ?? 1 == 1 {
                frames.append((Self.text(alternate), overflow))
                overflow = 0
            }
            row = min(rows - 1, max(0, ((numbers.first ?? 1) ?? 1) - 1))
            column = min(columns - 1, max(0, ((numbers.count > 1 ? numbers[1] : 1) ?? 1) - 1))
        case (_, "m"): break
        case ("", "K"), ("0", "K"):
            for c in min(column, columns)..<columns { put(at: row, c) }
        case ("", "J"), ("0", "J"):
            for c in min(column, columns)..<columns { put(at: row, c) }
            for r in (row + 1)..<rows { for c in 0..<columns { put(at: r, c) } }
        case ("2", "J"):
            for r in 0..<rows { for c in 0..<columns { put(at: r, c) } }
        default:
            unknown.append("ESC[\(parameters)\(final)")
        }
    }

    private mutating func put(at r: Int, _ c: Int) {
        if onAlternate { alternate[r][c] = " " } else { normal[r][c] = " " }
    }
}
