import Foundation

/// The non-generic state and logic of a keyed decoding container, so that the hot paths are
/// compiled once, fully specialized, instead of running as unspecialized generic code through
/// `KeyedDecodingContainer<Key>`'s box.
///
/// Entries are looked up by key name; `cursor` remembers where the previous read ended, so
/// fields read in the order they were written are found with one key comparison, and any
/// other order falls back to a scan of the container.
final class RecordKeyedDecodingCore {
    let decoder: RecordDecoderImpl
    let reader: RecordReader
    let codingPath: [any CodingKey]
    let start: Int
    let end: Int
    /// Number of containers enclosing the entries' values (this one included).
    let depth: Int
    /// Offset of the entry expected to be read next.
    var cursor: Int

    init(decoder: RecordDecoderImpl, codingPath: [any CodingKey], body: Range<Int>, depth: Int) {
        self.decoder = decoder
        self.reader = decoder.reader
        self.codingPath = codingPath
        self.start = body.lowerBound
        self.end = body.upperBound
        self.depth = depth
        self.cursor = body.lowerBound
    }

    /// The offset of the value stored under `name`, or `nil`; when found, `cursor` is left on that entry.
    @inline(__always)
    func locate(_ name: String) throws(RecordProblem) -> Int? {
        var name = name
        let result = name.withUTF8 { wanted -> Result<Int?, RecordProblem> in
            do throws(RecordProblem) {
                return .success(try find(wanted))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    @inline(__always)
    private func find(_ wanted: UnsafeBufferPointer<UInt8>) throws(RecordProblem) -> Int? {
        if cursor < end {
            let entry = try reader.entryKey(at: cursor, limit: end)
            if keyMatches(entry.key, wanted) {
                return entry.value
            }
        }
        var position = start
        while position < end {
            let entry = try reader.entryKey(at: position, limit: end)
            if keyMatches(entry.key, wanted) {
                cursor = position
                return entry.value
            }
            position = try reader.valueEnd(at: entry.value, limit: end)
        }
        return nil
    }

    @inline(__always)
    private func keyMatches(_ stored: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == wanted.count else { return false }
        guard let wantedBase = wanted.baseAddress else { return true }
        let storedBase = reader.base + stored.lowerBound
        if stored.count <= 24 {
            for index in 0..<stored.count where storedBase[index] != wantedBase[index] {
                return false
            }
            return true
        }
        return memcmp(storedBase, wantedBase, stored.count) == 0
    }

    @inline(__always)
    func require(_ name: String) throws(RecordProblem) -> Int {
        guard let position = try locate(name) else {
            throw RecordProblem(
                kind: .keyNotFound, type: Any.self,
                message: "No value for key \"\(name)\" in the keyed container at byte offset \(start)"
            )
        }
        return position
    }

    @inline(__always)
    func read<T>(_ name: String, _ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws(RecordProblem) -> T {
        let position = try require(name)
        let (value, next) = try read(position, end)
        cursor = next
        return value
    }

    @inline(__always)
    func readIfPresent<T>(_ name: String, _ read: (Int, Int) throws(RecordProblem) -> (T, Int)) throws(RecordProblem) -> T? {
        guard let position = try locate(name) else { return nil }
        if reader.isNil(at: position, limit: end) {
            cursor = position + 1
            return nil
        }
        let (value, next) = try read(position, end)
        cursor = next
        return value
    }

    func decodeNil(_ name: String) throws(RecordProblem) -> Bool {
        let position = try require(name)
        if reader.isNil(at: position, limit: end) {
            cursor = position + 1
            return true
        }
        return false
    }

    func bool(_ name: String) throws(RecordProblem) -> Bool { try read(name, reader.readBool) }
    func string(_ name: String) throws(RecordProblem) -> String { try read(name, reader.readString) }
    func double(_ name: String) throws(RecordProblem) -> Double { try read(name, reader.readDouble) }
    func float(_ name: String) throws(RecordProblem) -> Float { try read(name, reader.readFloat) }
    func integer<T: FixedWidthInteger>(_ name: String, as type: T.Type) throws(RecordProblem) -> T {
        let reader = reader
        return try read(name) { p, l throws(RecordProblem) in try reader.readInteger(T.self, at: p, limit: l) }
    }

    func boolIfPresent(_ name: String) throws(RecordProblem) -> Bool? { try readIfPresent(name, reader.readBool) }
    func stringIfPresent(_ name: String) throws(RecordProblem) -> String? { try readIfPresent(name, reader.readString) }
    func doubleIfPresent(_ name: String) throws(RecordProblem) -> Double? { try readIfPresent(name, reader.readDouble) }
    func floatIfPresent(_ name: String) throws(RecordProblem) -> Float? { try readIfPresent(name, reader.readFloat) }
    func integerIfPresent<T: FixedWidthInteger>(_ name: String, as type: T.Type) throws(RecordProblem) -> T? {
        let reader = reader
        return try readIfPresent(name) { p, l throws(RecordProblem) in try reader.readInteger(T.self, at: p, limit: l) }
    }

    /// The names of all entries, in stored order (stops quietly at a corrupt entry).
    var allNames: [String] {
        var names: [String] = []
        var position = start
        while position < end {
            guard let entry = try? reader.entryKey(at: position, limit: end),
                  let next = try? reader.valueEnd(at: entry.value, limit: end) else { break }
            names.append(String(decoding: UnsafeBufferPointer(start: reader.base + entry.key.lowerBound, count: entry.key.count), as: UTF8.self))
            position = next
        }
        return names
    }

    /// Runs `body` with the shared decoder temporarily pointed at the value at `position`.
    func withDecoder<R>(at position: Int, path: [any CodingKey], _ body: (RecordDecoderImpl) throws -> R) throws -> R {
        let valueEnd: Int
        do {
            valueEnd = try reader.valueEnd(at: position, limit: end)
        } catch {
            throw error.decodingError(path: path)
        }
        let saved = (decoder.position, decoder.limit, decoder.depth, decoder.codingPath)
        decoder.position = position
        decoder.limit = valueEnd
        decoder.depth = depth
        decoder.codingPath = path
        defer { (decoder.position, decoder.limit, decoder.depth, decoder.codingPath) = saved }
        return try body(decoder)
    }
}
