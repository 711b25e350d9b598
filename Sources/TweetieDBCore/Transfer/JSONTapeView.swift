import Foundation

/// A parsed ``JSONTape`` to read values from: its entries and its text, as plain pointers.
///
/// Why: the decoder reads a tape several times per value (find the key, check the kind, make the
/// string or the number); reading through the tape itself, stored in a class, retained and
/// released its array at every call. The view holds no reference: it is valid while its owner
/// (``JSONTapeDecoder/State``) keeps the entries and the caller keeps the text.
///
/// ```swift
/// let name = try view.string(index)
/// ```
struct JSONTapeView {
    let entries: UnsafeBufferPointer<JSONTape.Entry>
    let bytes: UnsafeRawBufferPointer

    /// The raw bytes of entry `index` (for a string, between its quotes).
    func raw(_ index: Int) -> UnsafeRawBufferPointer {
        let entry = entries[index]
        return UnsafeRawBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
    }

    /// The string at `index`, unescaped; invalid UTF-8 or a surrogate escape is ``Invalid``.
    func string(_ index: Int) throws -> String {
        let entry = entries[index]
        guard entry.kind == .string else { throw JSONTape.Invalid() }
        let raw = self.raw(index)
        // The bytes were checked by `parse`.
        guard entry.escaped else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var cursor = 0
        while cursor < raw.count {
            let byte = raw[cursor]
            guard byte == 0x5C else { out.append(byte); cursor += 1; continue }
            let code = raw[cursor + 1]
            cursor += 2
            switch code {
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar: UInt32 = 0
                for offset in 0..<4 { scalar = scalar << 4 | JSONTape.hexValue(raw[cursor + offset])! }
                cursor += 4
                // Surrogate pairs are rare in records; JSONDecoder reads them.
                guard let value = Unicode.Scalar(scalar) else { throw JSONTape.Invalid() }
                out.append(contentsOf: String(Character(value)).utf8)
            default: out.append(code) // " \ /
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw JSONTape.Invalid() }
        return text
    }

    /// The date at `index` as `RecordJSON.decoder()` reads it, ISO 8601 text (straight from the
    /// line's bytes unless the string has escapes); nil for anything else.
    func date(_ index: Int) -> Date? {
        let entry = entries[index]
        guard entry.kind == .string else { return nil }
        return entry.escaped
            ? (try? string(index)).flatMap(ISO8601.date(from:))
            : ISO8601.date(fromUTF8: raw(index).assumingMemoryBound(to: UInt8.self))
    }

    /// The number at `index` as an integer: plain integer text only (`12`, `-7`), within range.
    func integer<T: FixedWidthInteger>(_ index: Int, as type: T.Type) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else { throw JSONTape.Invalid() }
        let raw = self.raw(index)
        var cursor = 0
        let negative = raw[0] == 0x2D
        if negative { cursor = 1 }
        // "-0", fractions and exponents are left to JSONDecoder.
        guard cursor < raw.count, !(negative && raw[cursor] == 0x30) else { throw JSONTape.Invalid() }
        var magnitude: UInt64 = 0
        while cursor < raw.count {
            let digit = raw[cursor] &- 0x30
            guard digit < 10 else { throw JSONTape.Invalid() }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw JSONTape.Invalid() }
            magnitude = sum
            cursor += 1
        }
        if negative {
            guard T.isSigned, magnitude <= UInt64(T.max) + 1 else { throw JSONTape.Invalid() }
            return magnitude == UInt64(T.max) + 1 ? T.min : 0 - T(magnitude)
        }
        guard let value = T(exactly: magnitude) else { throw JSONTape.Invalid() }
        return value
    }

    /// The number at `index` as a Double: finite, and not a non-zero text that rounds to zero.
    func double(_ index: Int) throws -> Double {
        let (value, text) = try floatingPoint(index, as: Double.self)
        guard value.isFinite, value != 0 || Self.isZero(text) else { throw JSONTape.Invalid() }
        return value
    }

    /// The number at `index` as a Float, when reading it directly and through Double agree.
    func float(_ index: Int) throws -> Float {
        let (value, text) = try floatingPoint(index, as: Float.self)
        guard value.isFinite, value != 0 || Self.isZero(text), let wide = Double(text), Float(wide) == value else { throw JSONTape.Invalid() }
        return value
    }

    private func floatingPoint<T: LosslessStringConvertible>(_ index: Int, as type: T.Type) throws -> (T, Substring) {
        guard entries[index].kind == .number else { throw JSONTape.Invalid() }
        let text = Substring(decoding: raw(index), as: UTF8.self)
        guard let value = T(String(text)) else { throw JSONTape.Invalid() }
        return (value, text)
    }

    /// Whether a number's digits (before any exponent) are all zero.
    private static func isZero(_ text: Substring) -> Bool {
        for character in text {
            if character == "e" || character == "E" { break }
            if character.isNumber, character != "0" { return false }
        }
        return true
    }

    /// The tape index of the value under the key `name` (UTF-8) in the object at `object`, or
    /// nil. When the tape's keys are known distinct (`keysDistinct`: it was parsed
    /// `rejectingAmbiguousKeys`), `near`, a key index of the same object, and the key after it are
    /// tried first (the last key found: decoders ask for a key, its twin and its neighbour in
    /// turn); otherwise the first key of the name counts, as always. An unescaped key compares
    /// by its bytes; an escaped one, unescaped, as a `String`.
    func member(of object: Int, named name: UnsafeBufferPointer<UInt8>, near: Int, keysDistinct: Bool) -> Int? {
        let end = Int(entries[object].next)
        func matches(_ member: Int) -> Bool {
            let entry = entries[member]
            guard !entry.escaped else { return (try? string(member)) == String(decoding: name, as: UTF8.self) }
            return Int(entry.end - entry.start) == name.count
                && (name.isEmpty || memcmp(bytes.baseAddress! + Int(entry.start), name.baseAddress!, name.count) == 0)
        }
        if keysDistinct, near > object, near < end {
            if matches(near) { return near + 1 }
            let following = Int(entries[near + 1].next)
            if following < end, matches(following) { return following + 1 }
        }
        var member = object + 1
        while member < end {
            if matches(member) { return member + 1 }
            member = Int(entries[member + 1].next)
        }
        return nil
    }
}
