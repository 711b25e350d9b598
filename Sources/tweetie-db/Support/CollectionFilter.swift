import Foundation
import TweetieSync

/// Keeps one collection of an export stream: its header rewritten to list that collection only
/// (the bytes an export of a store holding only it would have), and its record lines.
struct CollectionFilter {
    let name: String
    private let prefix: [UInt8]
    private var pending: [UInt8] = []
    private var headerDone = false
    private(set) var records = 0

    init(_ name: String) {
        self.name = name
        prefix = Array(#"{"collection":"#.utf8) + Array((try? JSONEncoder().encode(name)) ?? Data()) + Array(#","record":"#.utf8)
    }

    /// Passes `chunk` to `write` through `filter`, or unchanged when `filter` is nil.
    static func apply(_ filter: inout CollectionFilter?, to chunk: UnsafeRawBufferPointer, _ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard filter != nil else { return try write(chunk) }
        let kept = try filter!.filter(chunk)
        try kept.withUnsafeBytes(write)
    }

    /// The complete lines of `chunk` (with what was pending) that belong to the collection.
    mutating func filter(_ chunk: UnsafeRawBufferPointer) throws -> [UInt8] {
        pending.append(contentsOf: chunk)
        var out: [UInt8] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            let line = pending[start..<newline]
            if !headerDone {
                headerDone = true
                var header = try JSONDecoder().decode(ExportHeader.self, from: Data(line))
                header.collections = header.collections.filter { $0.name == name }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                out.append(contentsOf: try encoder.encode(header))
                out.append(0x0A)
            } else if line.starts(with: prefix) {
                out.append(contentsOf: pending[start...newline])
                records += 1
            }
            start = newline + 1
        }
        pending.removeFirst(start)
        return out
    }
}
