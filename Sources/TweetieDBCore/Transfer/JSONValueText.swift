import Foundation

/// The text of one JSON scalar exactly as `RecordJSON.encoder()` writes it: no spaces, slashes
/// not escaped, `"`, `\` and control characters escaped (`\b \t \n \f \r`, the others as
/// `\u00xx`), everything else as UTF-8, floating-point numbers as their Swift `description`
/// without a trailing `.0`.
///
/// Rules: the text must equal Foundation's byte for byte, because exports are compared across
/// runs and tools (`RecordJSONWriterTests` compares the two on generated records and on the
/// edge cases: control characters, extreme numbers). Keep it that way when changing either side.
///
/// ```swift
/// JSONValueText.writeString("a/b", into: &bytes)   // "a/b"
/// JSONValueText.writeInteger(-12, into: &bytes)    // -12
/// ```
enum JSONValueText {
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 {
            out.append(0x2D)
            writeUnsigned(value.magnitude, into: &out)
        } else {
            writeUnsigned(UInt64(value), into: &out)
        }
    }

    static func writeUnsigned(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(0x30 &+ UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = value
            var count = 0
            while remaining > 0 {
                digits[19 - count] = 0x30 &+ UInt8(remaining % 10)
                remaining /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// A finite `Float` or `Double`'s description, without a trailing `.0` (`1.0` → `1`).
    static func writeFloatingPoint(_ description: String, into out: inout [UInt8]) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }

    /// A date as a string of ISO 8601 text with milliseconds; only for a date that has such a
    /// text (`ISO8601.hasText`).
    static func writeDate(_ value: Date, into out: inout [UInt8]) {
        out.append(0x22)
        ISO8601.append(value, to: &out)
        out.append(0x22)
    }

    static func writeBool(_ value: Bool, into out: inout [UInt8]) {
        if value {
            out.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    static func writeNull(into out: inout [UInt8]) {
        out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    static func writeString(_ value: String, into out: inout [UInt8]) {
        var value = value
        value.withUTF8 { writeString(utf8: $0, into: &out) }
    }

    /// Writes UTF-8 text as a quoted, escaped JSON string.
    static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(0x22)
        guard let base = bytes.baseAddress else {
            out.append(0x22)
            return
        }
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            // Eight bytes at a time while none needs escaping (most text), then one at a time
            // through the eight that hold one.
            if index + 8 <= count, !needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    if runStart < index { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
                    runStart = index + 1
                    writeEscape(byte, into: &out)
                }
                index += 1
            }
        }
        if runStart < count { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        out.append(0x22)
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\`.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20 (bytes of 0x80 and above are excluded by `& ~word`), or one equal
        // to 0x22 or 0x5C (a zero byte after the xor).
        let below = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return (below | equal) & highs != 0
    }

    private static func writeEscape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
        case 0x08: out.append(contentsOf: [0x5C, 0x62])
        case 0x09: out.append(contentsOf: [0x5C, 0x74])
        case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
        case 0x0C: out.append(contentsOf: [0x5C, 0x66])
        case 0x0D: out.append(contentsOf: [0x5C, 0x72])
        default:
            let hex: StaticString = "0123456789abcdef"
            let digits = hex.utf8Start
            out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }
    }
}
