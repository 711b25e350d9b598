import Foundation

/// One JSON text parsed and validated into a flat list of values (a "tape"), for
/// ``JSONTapeDecoder``.
///
/// Why: `JSONDecoder` builds a tree of dictionaries and strings for every record it reads; an
/// import decodes records whose keys are looked up once each. The tape records where each value
/// is (byte offsets into the text) and where it ends, and makes strings and numbers only when
/// the decoder asks for them.
///
/// Rules: `parse` accepts exactly RFC 8259 JSON (whitespace, literals, the number grammar,
/// string escapes, no raw control characters, strict UTF-8 in every string, nothing after the
/// value). The text must outlive the tape (it is not copied).
///
/// ```swift
/// let tape = try JSONTape.parse(bytes)      // bytes: UnsafeRawBufferPointer
/// if case .object = tape.entries[0].kind { … }
/// ```
struct JSONTape {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    struct Entry {
        var kind: Kind
        /// A string holds a backslash escape.
        var escaped = false
        /// The value's first byte; for a string, the byte after its opening quote.
        var start: Int32
        /// For a string, its closing quote; for a number or literal, the byte after it; for an
        /// array or object, the byte after its closing bracket.
        var end: Int32 = 0
        /// The entry that follows this value and everything inside it.
        var next: Int32 = 0
    }

    /// The JSON text is not valid, or not what this parser takes on.
    struct Invalid: Error {}

    let bytes: UnsafeRawBufferPointer
    private(set) var entries: [Entry] = []
    /// Whether an object whose keys cannot be told apart by their bytes alone is ``Invalid``:
    /// one with two keys of the same bytes, an escaped key, or more than
    /// ``duplicateCheckLimit`` keys.
    let rejectsAmbiguousKeys: Bool

    /// The most keys of one object that `rejectingAmbiguousKeys` compares pairwise.
    static let duplicateCheckLimit = 32

    private init(bytes: UnsafeRawBufferPointer, rejectsAmbiguousKeys: Bool) {
        self.bytes = bytes
        self.rejectsAmbiguousKeys = rejectsAmbiguousKeys
        entries.reserveCapacity(64)
    }

    /// Parses one JSON text (an object, array or scalar, with whitespace around it).
    ///
    /// `depth` is how many containers enclose the text (it is part of a larger document): with
    /// them, at most `JSONNesting.maximumDepth` containers nest, as ``JSONStructure`` counts. With
    /// `rejectingAmbiguousKeys`, an object with a key that appears twice (or that this parser
    /// does not compare: escaped, or one of over ``duplicateCheckLimit``) is ``Invalid`` — what
    /// an import's one-pass fast path asks, leaving every such line to its exact checks.
    static func parse(_ bytes: UnsafeRawBufferPointer, depth: Int = 0, rejectingAmbiguousKeys: Bool = false) throws -> JSONTape {
        guard bytes.count < Int32.max else { throw Invalid() }
        var tape = JSONTape(bytes: bytes, rejectsAmbiguousKeys: rejectingAmbiguousKeys)
        var position = tape.skipWhitespace(0)
        position = try tape.parseValue(at: position, depth: depth)
        guard tape.skipWhitespace(position) == bytes.count else { throw Invalid() }
        return tape
    }

    /// Throws ``Invalid`` when two keys of the object at `index` (just parsed) have the same
    /// bytes, or one is escaped, or it has more than ``duplicateCheckLimit`` keys.
    private func checkKeysDistinct(ofObjectAt index: Int) throws {
        try entries.withUnsafeBufferPointer { entries in
            let end = Int(entries[index].next)
            // Keys in strictly ascending byte order (an export's, always) are distinct: one
            // comparison per key. Others are compared pairwise.
            var member = index + 1
            var count = 0
            var previous = -1
            var ascending = true
            while member < end {
                let key = entries[member]
                count += 1
                guard !key.escaped, count <= Self.duplicateCheckLimit else { throw Invalid() }
                if ascending, previous >= 0, !precedes(entries[previous], key) { ascending = false }
                previous = member
                member = Int(entries[member + 1].next)
            }
            if ascending { return }
            member = index + 1
            while member < end {
                let key = entries[member]
                let length = key.end - key.start
                var other = index + 1
                while other < member {
                    let earlier = entries[other]
                    if earlier.end - earlier.start == length,
                       memcmp(bytes.baseAddress! + Int(earlier.start), bytes.baseAddress! + Int(key.start), Int(length)) == 0 {
                        throw Invalid()
                    }
                    other = Int(entries[other + 1].next)
                }
                member = Int(entries[member + 1].next)
            }
        }
    }

    /// Whether key `a`'s bytes sort strictly before key `b`'s (`memcmp` order, a prefix first).
    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        compareBytes(UnsafeRawBufferPointer(rebasing: bytes[Int(a.start)..<Int(a.end)]),
                     UnsafeRawBufferPointer(rebasing: bytes[Int(b.start)..<Int(b.end)])) < 0
    }

    private func skipWhitespace(_ start: Int) -> Int {
        var position = start
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return position
            }
        }
        return position
    }

    /// Parses the value at `position`; returns the position after it.
    private mutating func parseValue(at position: Int, depth: Int) throws -> Int {
        guard position < bytes.count else { throw Invalid() }
        let index = entries.count
        switch bytes[position] {
        case 0x7B where depth >= JSONNesting.maximumDepth, 0x5B where depth >= JSONNesting.maximumDepth:
            throw Invalid() // as JSONStructure counts: at most `maximumDepth` containers, one in another
        case 0x7B: // {
            entries.append(Entry(kind: .object, start: Int32(position)))
            var cursor = skipWhitespace(position + 1)
            if cursor < bytes.count, bytes[cursor] == 0x7D {
                cursor += 1
            } else {
                while true {
                    guard cursor < bytes.count, bytes[cursor] == 0x22 else { throw Invalid() }
                    // Each parse before its skip: `skipWhitespace(try parse…)` took `self` (a
                    // second reference to `entries`) before the parse appended, so every append
                    // copied the whole tape (3.3 -> 1.2 µs for a tweet's record).
                    let afterKey = try parseString(at: cursor)
                    cursor = skipWhitespace(afterKey)
                    guard cursor < bytes.count, bytes[cursor] == 0x3A else { throw Invalid() }
                    let afterValue = try parseValue(at: skipWhitespace(cursor + 1), depth: depth + 1)
                    cursor = skipWhitespace(afterValue)
                    guard cursor < bytes.count else { throw Invalid() }
                    if bytes[cursor] == 0x2C { cursor = skipWhitespace(cursor + 1); continue }
                    guard bytes[cursor] == 0x7D else { throw Invalid() }
                    cursor += 1
                    break
                }
            }
            entries[index].end = Int32(cursor)
            entries[index].next = Int32(entries.count)
            if rejectsAmbiguousKeys { try checkKeysDistinct(ofObjectAt: index) }
            return cursor
        case 0x5B: // [
            entries.append(Entry(kind: .array, start: Int32(position)))
            var cursor = skipWhitespace(position + 1)
            if cursor < bytes.count, bytes[cursor] == 0x5D {
                cursor += 1
            } else {
                while true {
                    let afterElement = try parseValue(at: cursor, depth: depth + 1)
                    cursor = skipWhitespace(afterElement)
                    guard cursor < bytes.count else { throw Invalid() }
                    if bytes[cursor] == 0x2C { cursor = skipWhitespace(cursor + 1); continue }
                    guard bytes[cursor] == 0x5D else { throw Invalid() }
                    cursor += 1
                    break
                }
            }
            entries[index].end = Int32(cursor)
            entries[index].next = Int32(entries.count)
            return cursor
        case 0x22:
            return try parseString(at: position)
        case 0x74: return try literal(at: position, [0x74, 0x72, 0x75, 0x65], .true)
        case 0x66: return try literal(at: position, [0x66, 0x61, 0x6C, 0x73, 0x65], .false)
        case 0x6E: return try literal(at: position, [0x6E, 0x75, 0x6C, 0x6C], .null)
        default:
            return try parseNumber(at: position)
        }
    }

    private mutating func literal(at position: Int, _ text: [UInt8], _ kind: Kind) throws -> Int {
        guard position + text.count <= bytes.count else { throw Invalid() }
        for (offset, byte) in text.enumerated() where bytes[position + offset] != byte { throw Invalid() }
        entries.append(Entry(kind: kind, start: Int32(position), end: Int32(position + text.count), next: Int32(entries.count + 1)))
        return position + text.count
    }

    /// A string starting at its opening quote; returns the position after the closing quote.
    private mutating func parseString(at position: Int) throws -> Int {
        var cursor = position + 1
        var escaped = false
        var ascii = true
        let count = bytes.count
        scan: while true {
            // Eight plain bytes at a time (most of a tweet's text); a word holding a byte that
            // needs a look goes through the loop below, one byte at a time.
            while cursor + 8 <= count, !Self.needsLook(bytes.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)) {
                cursor += 8
            }
            let stop = cursor + 8
            while cursor < stop {
                guard cursor < count else { throw Invalid() }
                let byte = bytes[cursor]
                if byte == 0x22 { break scan }
                guard byte >= 0x20 else { throw Invalid() }
                if byte >= 0x80 { ascii = false }
                if byte == 0x5C {
                    escaped = true
                    guard cursor + 1 < count else { throw Invalid() }
                    switch bytes[cursor + 1] {
                    case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
                        cursor += 2
                    case 0x75:
                        guard cursor + 6 <= count else { throw Invalid() }
                        for offset in 2..<6 where Self.hexValue(bytes[cursor + offset]) == nil { throw Invalid() }
                        cursor += 6
                    default:
                        throw Invalid()
                    }
                    continue
                }
                cursor += 1
            }
        }
        // Every string is checked, read or not: JSONDecoder refuses invalid UTF-8 anywhere.
        guard ascii || Self.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[(position + 1)..<cursor])) else { throw Invalid() }
        entries.append(Entry(kind: .string, escaped: escaped, start: Int32(position + 1), end: Int32(cursor), next: Int32(entries.count + 1)))
        return cursor + 1
    }

    /// Whether any of the eight bytes of `word` is a quote, a backslash, a control character
    /// (below 0x20) or not ASCII: the bytes a string's scan must look at. Exact on "none" (the
    /// SWAR tests for a zero byte and for a byte below n ≤ 128 have no false negatives); a false
    /// "some" would only cost the byte-at-a-time loop.
    @inline(__always)
    static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let quoteFound = (quote &- ones) & ~quote
        let backslashFound = (backslash &- ones) & ~backslash
        let controlFound = (word &- ones &* 0x20) & ~word
        return (quoteFound | backslashFound | controlFound | word) & highs != 0
    }

    /// Strict UTF-8 (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing above
    /// U+10FFFF, no truncated sequences.
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber(at position: Int) throws -> Int {
        var cursor = position
        func digits() throws {
            let start = cursor
            while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 { cursor += 1 }
            guard cursor > start else { throw Invalid() }
        }
        if cursor < bytes.count, bytes[cursor] == 0x2D { cursor += 1 }
        guard cursor < bytes.count else { throw Invalid() }
        if bytes[cursor] == 0x30 {
            cursor += 1
        } else {
            try digits()
        }
        if cursor < bytes.count, bytes[cursor] == 0x2E {
            cursor += 1
            try digits()
        }
        if cursor < bytes.count, bytes[cursor] == 0x65 || bytes[cursor] == 0x45 {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == 0x2B || bytes[cursor] == 0x2D { cursor += 1 }
            try digits()
        }
        entries.append(Entry(kind: .number, start: Int32(position), end: Int32(cursor), next: Int32(entries.count + 1)))
        return cursor
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }
}
