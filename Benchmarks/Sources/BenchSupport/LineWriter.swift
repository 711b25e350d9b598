import Foundation

/// Buffered writing of newline-terminated lines (NDJSON), and splitting a file's bytes into lines.
///
/// ```swift
/// let writer = try LineWriter(path: "/tmp/out.ndjson")
/// writer.append(Data("{}".utf8))
/// try writer.close()
/// ```
public final class LineWriter {
    private let handle: FileHandle
    private var buffer = Data()
    private var failure: (any Error)?

    /// Creates (truncating) the file at `path`.
    ///
    /// ```swift
    /// let writer = try LineWriter(path: path)
    /// ```
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SuiteError("cannot create \(path)")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends `line` and a newline.
    ///
    /// ```swift
    /// writer.append(try encoder.encode(tweet))
    /// ```
    public func append(_ line: Data) {
        buffer.append(line)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch { failure = failure ?? error }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; throws the first write error.
    ///
    /// ```swift
    /// try writer.close()
    /// ```
    public func close() throws {
        flush()
        try handle.close()
        if let failure { throw failure }
    }

    /// Calls `body` with each non-empty line of `data` (without its newline).
    ///
    /// ```swift
    /// try LineWriter.forEachLine(in: data) { line in print(line.count) }
    /// ```
    public static func forEachLine(in data: Data, _ body: (Data) throws -> Void) throws {
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            if end > start { try body(data[start..<end]) }
            start = end + 1
        }
    }
}
