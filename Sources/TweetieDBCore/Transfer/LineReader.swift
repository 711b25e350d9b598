#if canImport(Glibc)
import Glibc
#endif

/// Reads newline-terminated lines from a file descriptor with a bounded buffer: memory grows with
/// the longest line read (up to `maxLineBytes`), not with the input, and is not taken ahead of the
/// lines; a line over the bound is a clear error.
struct LineReader {
    enum Line {
        /// A complete line (without its newline).
        case line([UInt8])
        /// The input ended inside a line: it has no terminating newline.
        case unterminated([UInt8])
        case tooLong
    }

    /// The size of one `read(2)`, and of the buffer until a line needs more.
    static let readSize = 64 * 1024
    /// The largest `maxLineBytes` honoured as given (larger values act as this one): keeps the
    /// buffer arithmetic far from overflow.
    static let largestMaxLineBytes = Int.max / 4

    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var eof = false
    /// The descriptor's offset when the reader was created; `nil` when it cannot seek (a pipe).
    private let origin: Int?
    /// Bytes taken from the input since the reader started (or the offset it was rewound to,
    /// plus what it read since), including bytes buffered but not yet returned.
    private(set) var bytesRead = 0
    /// Where the next line starts, in bytes from where the reader started.
    var offset: Int { bytesRead - (end - start) }

    init(fileDescriptor: Int32, maxLineBytes: Int) {
        fd = fileDescriptor
        self.maxLineBytes = min(max(0, maxLineBytes), Self.largestMaxLineBytes)
        buffer = [UInt8](repeating: 0, count: Self.readSize)
        let position = lseek(fileDescriptor, 0, SEEK_CUR)
        origin = position >= 0 ? Int(position) : nil
    }

    /// What ``next(appendingTo:)`` found.
    enum Kind {
        /// A complete line; its bytes (without the newline) were appended.
        case line
        /// The input ended inside a line; its bytes were appended.
        case unterminated
        /// A line over `maxLineBytes`; nothing was appended.
        case tooLong
    }

    /// The next line, or `nil` at the end of the input.
    mutating func next() throws -> Line? {
        guard let (kind, range) = try nextRange() else { return nil }
        switch kind {
        case .line: return .line(Array(buffer[range]))
        case .unterminated: return .unterminated(Array(buffer[range]))
        case .tooLong: return .tooLong
        }
    }

    /// The next line, its bytes appended to `text` (an import's batch keeps its lines back to
    /// back in one buffer, not one array each); `nil` at the end of the input.
    mutating func next(appendingTo text: RecordByteBuffer) throws -> Kind? {
        guard let (kind, range) = try nextRange() else { return nil }
        if kind != .tooLong {
            buffer.withUnsafeBytes { text.append(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        return kind
    }

    /// The next line and where its bytes lie in `buffer` (valid until the next call).
    private mutating func nextRange() throws -> (Kind, Range<Int>)? {
        while true {
            let newline = buffer.withUnsafeBufferPointer { p in
                memchr(p.baseAddress! + start, 0x0A, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(p.baseAddress!) }
            }
            if let newline {
                let lineStart = start
                start = newline + 1
                guard newline - lineStart <= maxLineBytes else { return (.tooLong, 0..<0) }
                return (.line, lineStart..<newline)
            }
            if end - start > maxLineBytes { return (.tooLong, 0..<0) }
            if eof {
                guard start < end else { return nil }
                let rest = start..<end
                start = end
                return (.unterminated, rest)
            }
            makeRoom()
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

    /// Moves the unreturned bytes to the front of the buffer, and doubles the buffer (up to one
    /// byte past the longest line allowed) when a line fills all of it.
    private mutating func makeRoom() {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { p in
                _ = memmove(p.baseAddress!, p.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count {
            // Only reached while the partial line is within the bound, so the bound is larger.
            buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, maxLineBytes + 1 - buffer.count)))
        }
    }

    /// Reads again from `offset` bytes past where the reader started (seeking the descriptor):
    /// how an import starts its records over when its write transaction runs again.
    mutating func rewind(to offset: Int) throws {
        guard let origin, lseek(fd, off_t(origin + offset), SEEK_SET) >= 0 else {
            throw TransferError(line: nil, reason: "cannot seek back in the input to read it again: \(String(cString: strerror(origin == nil ? ESPIPE : errno)))")
        }
        start = 0
        end = 0
        eof = false
        bytesRead = offset
    }

    /// Copies everything not yet returned — the buffered bytes, then the descriptor to its end —
    /// to `destination`; returns the number of bytes copied. `failure` describes a failed write.
    mutating func copyRest(to destination: Int32, failure: (Int32) -> TransferError) throws -> Int {
        var copied = 0
        while true {
            var written = 0
            while start + written < end {
                let n = buffer.withUnsafeBufferPointer { p in
                    Glibc.write(destination, p.baseAddress! + start + written, end - start - written)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno)
                }
                written += n
            }
            copied += end - start
            start = 0
            end = 0
            if eof { return copied }
            let count = buffer.withUnsafeMutableBufferPointer { p in read(fd, p.baseAddress!, p.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransferError(line: nil, reason: "cannot read the input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { eof = true }
            end = count
            bytesRead += count
        }
    }
}
