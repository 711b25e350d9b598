import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Line reader")
struct LineReaderTests {
    /// Writes `bytes` to a temporary file and opens it.
    static func file(_ bytes: [UInt8]) -> (fd: Int32, remove: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let fd = open(path, O_RDONLY)
        return (fd, { close(fd); try? FileManager.default.removeItem(atPath: path) })
    }

    static func line(_ length: Int, _ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: length) }

    @Test func linesLongerThanOneReadGrowTheBufferUpToTheBoundAndNoFurther() throws {
        let bound = 200_000
        let lengths = [10, LineReader.readSize - 1, LineReader.readSize, LineReader.readSize + 1, 3, bound, 150_000, bound + 1]
        var input: [UInt8] = []
        for (i, length) in lengths.enumerated() { input += Self.line(length, UInt8(97 + i)) + [0x0A] }
        let (fd, remove) = Self.file(input)
        defer { remove() }
        var reader = LineReader(fileDescriptor: fd, maxLineBytes: bound)
        for (i, length) in lengths.dropLast().enumerated() {
            guard case .line(let bytes)? = try reader.next() else { Issue.record("line \(i + 1) (\(length) bytes) was not read whole"); return }
            #expect(bytes == Self.line(length, UInt8(97 + i)), "line \(i + 1)")
        }
        guard case .tooLong? = try reader.next() else { Issue.record("a line one byte over the bound was accepted"); return }
    }

    @Test(arguments: [1024, 1 << 40, Int.max])
    func theBoundIsNotAllocatedAhead(bound: Int) throws {
        // A bound of 1 TiB (or Int.max) read from a small file: nothing is taken ahead, nothing overflows.
        let (fd, remove) = Self.file(Array("one\ntwo\nthree".utf8))
        defer { remove() }
        var reader = LineReader(fileDescriptor: fd, maxLineBytes: bound)
        guard case .line(let first)? = try reader.next(), case .line(let second)? = try reader.next(),
              case .unterminated(let third)? = try reader.next() else { Issue.record("lines not read"); return }
        #expect([first, second, third].map { String(decoding: $0, as: UTF8.self) } == ["one", "two", "three"])
        #expect(try reader.next() == nil)
    }

    @Test func rewindReadsAgainFromAnOffset() throws {
        let (fd, remove) = Self.file(Array("header\nr1\nr2\n".utf8))
        defer { remove() }
        var reader = LineReader(fileDescriptor: fd, maxLineBytes: 1024)
        _ = try reader.next()
        let first = reader.offset
        #expect(first == 7)
        for _ in 0..<2 {
            try reader.rewind(to: first)
            var lines: [String] = []
            while case .line(let bytes)? = try reader.next() { lines.append(String(decoding: bytes, as: UTF8.self)) }
            #expect(lines == ["r1", "r2"])
        }
    }
}
