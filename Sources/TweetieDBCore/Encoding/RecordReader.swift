import Foundation

/// Bounds-checked reads of the record format from raw memory. Every read takes a `limit`
/// (the end of the enclosing value, never beyond the buffer) and throws ``RecordProblem``
/// instead of reading past it.
struct RecordReader {
    let base: UnsafePointer<UInt8>
    let count: Int

    // MARK: Basics

    @inline(__always)
    func tag(at position: Int, limit: Int, expecting what: @autoclosure () -> String) throws(RecordProblem) -> UInt8 {
        guard position < limit else {
            throw .corrupted("Expected \(what()) at byte offset \(position), but the enclosing value ends at offset \(limit)")
        }
        return base[position]
    }

    @inline(__always)
    func varint(at position: inout Int, limit: Int, what: @autoclosure () -> String) throws(RecordProblem) -> UInt64 {
        // Fast path: the varint ends within 9 bytes and before `limit` (no overflow possible).
        var index = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let fastLimit = min(limit, position + 9)
        while index < fastLimit {
            let byte = base[index]
            value |= UInt64(byte & 0x7F) << shift
            index += 1
            if byte < 0x80 {
                position = index
                return value
            }
            shift += 7
        }
        return try varintSlow(at: &position, limit: limit, what: what())
    }

    /// Moves past a varint without decoding it.
    @inline(__always)
    func skipVarint(at position: inout Int, limit: Int) throws(RecordProblem) {
        var index = position
        let end = min(limit, position + 10)
        while index < end {
            if base[index] < 0x80 {
                position = index + 1
                return
            }
            index += 1
        }
        _ = try varintSlow(at: &position, limit: limit, what: "integer")
    }

    func varintSlow(at position: inout Int, limit: Int, what: String) throws(RecordProblem) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while true {
            guard index < limit else {
                throw .corrupted("Truncated varint (\(what)) starting at byte offset \(start): the enclosing value ends at offset \(limit)")
            }
            let byte = base[index]
            index += 1
            if shift == 63, byte > 1 {
                throw .corrupted("Varint (\(what)) starting at byte offset \(start) overflows 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                break
            }
            shift += 7
        }
        position = index
        return value
    }

    /// Reads a varint length and checks that `length` bytes follow before `limit`.
    @inline(__always)
    func length(at position: inout Int, limit: Int, what: @autoclosure () -> String) throws(RecordProblem) -> Int {
        let start = position
        let raw = try varint(at: &position, limit: limit, what: what())
        guard raw <= UInt64(limit - position) else {
            throw .corrupted("Length \(raw) of \(what()) at byte offset \(start) runs past the end of the enclosing value (offset \(limit))")
        }
        return Int(raw)
    }

    @inline(__always)
    func fixed(_ size: Int, at position: Int, limit: Int, what: @autoclosure () -> String) throws(RecordProblem) -> Int {
        guard limit - position >= size else {
            throw .corrupted("Expected \(size) bytes of \(what()) at byte offset \(position), but only \(max(0, limit - position)) remain in the enclosing value")
        }
        return position + size
    }

    @inline(__always)
    func loadLittleEndian<T: FixedWidthInteger>(_ type: T.Type, at position: Int) -> T {
        T(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: T.self))
    }

    /// The offset just past the value starting at `position`, validating its tag and extent.
    func valueEnd(at position: Int, limit: Int) throws(RecordProblem) -> Int {
        let tag = try tag(at: position, limit: limit, expecting: "a value")
        var cursor = position + 1
        switch tag {
        case RecordFormat.Tag.null, RecordFormat.Tag.boolFalse, RecordFormat.Tag.boolTrue:
            return cursor
        case RecordFormat.Tag.unsigned, RecordFormat.Tag.signed:
            try skipVarint(at: &cursor, limit: limit)
            return cursor
        case RecordFormat.Tag.float64, RecordFormat.Tag.date:
            return try fixed(8, at: cursor, limit: limit, what: RecordFormat.describe(tag: tag))
        case RecordFormat.Tag.float32:
            return try fixed(4, at: cursor, limit: limit, what: "a Float")
        case RecordFormat.Tag.uuid:
            return try fixed(16, at: cursor, limit: limit, what: "a UUID")
        case RecordFormat.Tag.string, RecordFormat.Tag.data, RecordFormat.Tag.url,
             RecordFormat.Tag.keyed, RecordFormat.Tag.unkeyed:
            let length = try length(at: &cursor, limit: limit, what: RecordFormat.describe(tag: tag))
            return cursor + length
        default:
            throw .corrupted("Unknown type tag 0x\(encodingHexByte(tag)) at byte offset \(position)")
        }
    }

    @inline(__always)
    func isNil(at position: Int, limit: Int) -> Bool {
        position < limit && base[position] == RecordFormat.Tag.null
    }

    @inline(__always)
    func mismatch(_ type: Any.Type, expected: String, tag: UInt8, at position: Int) -> RecordProblem {
        if tag == RecordFormat.Tag.null {
            return RecordProblem(kind: .valueNotFound, type: type, message: "Expected \(expected) at byte offset \(position) but found nil")
        }
        let known = tag <= RecordFormat.Tag.unkeyed
        return RecordProblem(
            kind: known ? .typeMismatch : .corrupted,
            type: type,
            message: "Expected \(expected) at byte offset \(position) but found \(RecordFormat.describe(tag: tag))"
        )
    }

    // MARK: Scalars

    @inline(__always)
    func readBool(at position: Int, limit: Int) throws(RecordProblem) -> (Bool, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "a Bool")
        switch tag {
        case RecordFormat.Tag.boolFalse: return (false, position + 1)
        case RecordFormat.Tag.boolTrue: return (true, position + 1)
        default: throw mismatch(Bool.self, expected: "a Bool", tag: tag, at: position)
        }
    }

    @inline(__always)
    func readInteger<T: FixedWidthInteger>(_ type: T.Type, at position: Int, limit: Int) throws(RecordProblem) -> (T, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "an integer (\(T.self))")
        var cursor = position + 1
        switch tag {
        case RecordFormat.Tag.unsigned:
            let raw = try varint(at: &cursor, limit: limit, what: "\(T.self)")
            guard let value = T(exactly: raw) else {
                throw RecordProblem(kind: .corrupted, type: T.self, message: "Number \(raw) at byte offset \(position) does not fit in \(T.self)")
            }
            return (value, cursor)
        case RecordFormat.Tag.signed:
            let raw = RecordFormat.unzigzag(try varint(at: &cursor, limit: limit, what: "\(T.self)"))
            guard let value = T(exactly: raw) else {
                throw RecordProblem(kind: .corrupted, type: T.self, message: "Number \(raw) at byte offset \(position) does not fit in \(T.self)")
            }
            return (value, cursor)
        default:
            throw mismatch(T.self, expected: "an integer (\(T.self))", tag: tag, at: position)
        }
    }

    @inline(__always)
    func readDouble(at position: Int, limit: Int) throws(RecordProblem) -> (Double, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "a Double")
        switch tag {
        case RecordFormat.Tag.float64:
            let end = try fixed(8, at: position + 1, limit: limit, what: "a Double")
            return (Double(bitPattern: loadLittleEndian(UInt64.self, at: position + 1)), end)
        case RecordFormat.Tag.float32:
            let end = try fixed(4, at: position + 1, limit: limit, what: "a Float")
            return (Double(Float(bitPattern: loadLittleEndian(UInt32.self, at: position + 1))), end)
        default:
            throw mismatch(Double.self, expected: "a Double", tag: tag, at: position)
        }
    }

    @inline(__always)
    func readFloat(at position: Int, limit: Int) throws(RecordProblem) -> (Float, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "a Float")
        switch tag {
        case RecordFormat.Tag.float32:
            let end = try fixed(4, at: position + 1, limit: limit, what: "a Float")
            return (Float(bitPattern: loadLittleEndian(UInt32.self, at: position + 1)), end)
        case RecordFormat.Tag.float64:
            let end = try fixed(8, at: position + 1, limit: limit, what: "a Double")
            let wide = Double(bitPattern: loadLittleEndian(UInt64.self, at: position + 1))
            let narrow = Float(wide)
            guard wide.isNaN || Double(narrow) == wide else {
                throw RecordProblem(kind: .corrupted, type: Float.self, message: "Double \(wide) at byte offset \(position) cannot be represented exactly as a Float")
            }
            return (narrow, end)
        default:
            throw mismatch(Float.self, expected: "a Float", tag: tag, at: position)
        }
    }

    /// Reads the length-prefixed payload of a value with the given tag; returns the payload range.
    @inline(__always)
    func readPayload(tag expectedTag: UInt8, type: Any.Type, at position: Int, limit: Int) throws(RecordProblem) -> Range<Int> {
        let tag = try tag(at: position, limit: limit, expecting: RecordFormat.describe(tag: expectedTag))
        guard tag == expectedTag else {
            throw mismatch(type, expected: RecordFormat.describe(tag: expectedTag), tag: tag, at: position)
        }
        var cursor = position + 1
        let length = try length(at: &cursor, limit: limit, what: RecordFormat.describe(tag: expectedTag))
        return cursor..<(cursor + length)
    }

    @inline(__always)
    func makeString(_ range: Range<Int>, at position: Int) throws(RecordProblem) -> String {
        let buffer = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
        // `String(decoding:)` is specialized and fast; it repairs invalid UTF-8 with U+FFFD, so a
        // repair is detected by comparing the result with the input.
        var string = String(decoding: buffer, as: UTF8.self)
        let exact = string.withUTF8 { decoded in
            decoded.count == buffer.count
                && (buffer.isEmpty || memcmp(decoded.baseAddress!, buffer.baseAddress!, buffer.count) == 0)
        }
        guard exact else {
            throw .corrupted("String at byte offset \(position) is not valid UTF-8")
        }
        return string
    }

    @inline(__always)
    func readString(at position: Int, limit: Int) throws(RecordProblem) -> (String, Int) {
        let range = try readPayload(tag: RecordFormat.Tag.string, type: String.self, at: position, limit: limit)
        return (try makeString(range, at: position), range.upperBound)
    }

    func readData(at position: Int, limit: Int) throws(RecordProblem) -> (Data, Int) {
        let range = try readPayload(tag: RecordFormat.Tag.data, type: Data.self, at: position, limit: limit)
        return (Data(bytes: base + range.lowerBound, count: range.count), range.upperBound)
    }

    func readURL(at position: Int, limit: Int) throws(RecordProblem) -> (URL, Int) {
        let range = try readPayload(tag: RecordFormat.Tag.url, type: URL.self, at: position, limit: limit)
        let string = try makeString(range, at: position)
        guard let url = URL(string: string) else {
            throw .corrupted("Invalid URL string \"\(string)\" at byte offset \(position)")
        }
        return (url, range.upperBound)
    }

    @inline(__always)
    func readDate(at position: Int, limit: Int) throws(RecordProblem) -> (Date, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "a Date")
        guard tag == RecordFormat.Tag.date else {
            throw mismatch(Date.self, expected: "a Date", tag: tag, at: position)
        }
        let end = try fixed(8, at: position + 1, limit: limit, what: "a Date")
        let interval = Double(bitPattern: loadLittleEndian(UInt64.self, at: position + 1))
        return (Date(timeIntervalSinceReferenceDate: interval), end)
    }

    func readUUID(at position: Int, limit: Int) throws(RecordProblem) -> (UUID, Int) {
        let tag = try tag(at: position, limit: limit, expecting: "a UUID")
        guard tag == RecordFormat.Tag.uuid else {
            throw mismatch(UUID.self, expected: "a UUID", tag: tag, at: position)
        }
        let end = try fixed(16, at: position + 1, limit: limit, what: "a UUID")
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + position + 1, count: 16)) }
        return (UUID(uuid: raw), end)
    }

    // MARK: Containers

    /// Validates a keyed container header; returns the range of its entries.
    @inline(__always)
    func keyedBody(at position: Int, limit: Int, type: Any.Type) throws(RecordProblem) -> Range<Int> {
        try readPayload(tag: RecordFormat.Tag.keyed, type: type, at: position, limit: limit)
    }

    /// Validates an unkeyed container header; returns its element count and the range of the elements.
    @inline(__always)
    func unkeyedBody(at position: Int, limit: Int, type: Any.Type) throws(RecordProblem) -> (count: Int, elements: Range<Int>) {
        let body = try readPayload(tag: RecordFormat.Tag.unkeyed, type: type, at: position, limit: limit)
        var cursor = body.lowerBound
        let count = try varint(at: &cursor, limit: body.upperBound, what: "element count")
        // Every element takes at least one byte, so a bogus count cannot cause a huge allocation.
        guard count <= UInt64(body.upperBound - cursor) else {
            throw .corrupted("Unkeyed container at byte offset \(position) claims \(count) elements but has only \(body.upperBound - cursor) bytes")
        }
        return (Int(count), cursor..<body.upperBound)
    }

    /// Reads the key of the keyed entry at `position`; returns the key bytes' range and where its value starts.
    @inline(__always)
    func entryKey(at position: Int, limit: Int) throws(RecordProblem) -> (key: Range<Int>, value: Int) {
        var cursor = position
        let length = try length(at: &cursor, limit: limit, what: "a key")
        return (cursor..<(cursor + length), cursor + length)
    }
}
