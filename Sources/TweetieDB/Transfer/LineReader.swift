#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-terminated lines from a file descriptor with a bounded buffer: constant memory
/// however large the input, and a clear error for a line over the bound.
struct LineReader {
    enum Line {
        /// A complete line (without its newline).
        case line([UInt8])
        /// The input ended inside a line: it has no terminating newline.
        case unterminated([UInt8])
        case tooLong
    }

    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var eof = false
    private(set) var bytesRead = 0

    init(fileDescriptor: Int32, maxLineBytes: Int) {
        fd = fileDescriptor
        self.maxLineBytes = maxLineBytes
        buffer = [UInt8](repeating: 0, count: max(64 * 1024, maxLineBytes + 1))
    }

    /// The next line, or `nil` at the end of the input.
    mutating func next() throws -> Line? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line.count > maxLineBytes ? .tooLong : .line(line)
            }
            if end - start > maxLineBytes { return .tooLong }
            if eof {
                guard start < end else { return nil }
                let rest = Array(buffer[start..<end])
                start = end
                return .unterminated(rest)
            }
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { p in
                    _ = memmove(p.baseAddress!, p.baseAddress! + start, end - start)
                }
                end -= start
                start = 0
            }
            let count = buffer.withUnsafeMutableBufferPointer { p in
                read(fd, p.baseAddress! + end, p.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransferError(line: nil, reason: "cannot read the input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { eof = true }
            end += count
            bytesRead += count
        }
    }
}

/// A failed export or import: the line (1-based) if known, and why. The database is unchanged.
///
/// ```swift
/// do { try store.importNDJSON(from: fd, mode: .merge) }
/// catch let error as TransferError { print(error) } // "line 3: duplicate key 42 in collection 'tweets'"
/// ```
public struct TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number of the offending line, if the error concerns one.
    ///
    /// ```swift
    /// print(error.line ?? 0)
    /// ```
    public var line: Int?
    /// Why the line or the input was rejected.
    ///
    /// ```swift
    /// print(error.reason)
    /// ```
    public var reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// TransferError(line: 2, reason: "bad JSON")
    /// ```
    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// "line N: reason", or the reason alone.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
