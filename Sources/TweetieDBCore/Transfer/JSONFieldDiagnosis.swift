import Foundation

/// Finds the field of a record line that an import refused, and says why, where Swift 6.3's
/// `JSONDecoder` names no field.
///
/// Two causes, looked for in this order:
/// - A byte JSON does not allow where it is (``badByte(in:startingAt:within:)``): a raw control
///   character (below 0x20) in a string, which JSON requires escaped, or anywhere outside one
///   but as whitespace; or a byte of a string that is not UTF-8. `JSONDecoder` says only "The
///   given data was not valid JSON." for these, and checks a string's bytes only when it decodes
///   that string, so the number diagnosis below, on its own, blamed whichever number changed
///   the error first (a raw control byte in `text` was reported as a bad `id`).
/// - A number that does not fit its field (`99999999999999999999` or `1.5` for an `Int64`,
///   `1e400` anywhere), reported the same field-less way (``explain(_:json:decode:)``): each
///   number in the record is replaced by `0` in turn and the record decoded again; the number
///   whose replacement makes that error go away is the one refused.
///
/// Rules: used on the failure path only (the number diagnosis decodes once per number); the
/// message names the field (a dotted path for nested values), the byte or number, and why.
///
/// ```swift
/// let why = JSONFieldDiagnosis.explain(error, json: json) { _ = try decoder.decode(User.self, from: $0) }
/// // "field 'id': 99999999999999999999 is outside the 64-bit integer range (…)"
/// ```
package enum JSONFieldDiagnosis {
    /// A number in the text: its bytes and the path of the value it is.
    private struct Number {
        var range: Range<Int>
        var path: String
    }

    /// What is wrong with the first byte of `bytes` that JSON does not allow where it is, naming
    /// its field and its place: `offset` is where `bytes` starts in its line (the message counts
    /// the line's bytes from 1), and `container`, when given, the field whose members are the
    /// fields to name (`record` for a whole line: `record.text` is named `text`). Nil when every
    /// byte is allowed.
    ///
    /// ```swift
    /// JSONFieldDiagnosis.badByte(in: line, startingAt: 0, within: "record")
    /// // "field 'text': byte 0x05 at byte 73 of the line is a raw control character, which a JSON string must escape (as \u0005)"
    /// ```
    package static func badByte(in bytes: UnsafeRawBufferPointer, startingAt offset: Int, within container: String? = nil) -> String? {
        var found: String?
        walk(bytes) { token in
            guard found == nil else { return }
            var subject: String
            switch token.place {
            case .value(let path): subject = path.isEmpty ? "the value" : "field '\(path)'"
            case .key(let object): subject = object.isEmpty ? "a field name" : "a field name in '\(object)'"
            case .between: subject = ""
            case .number: return
            }
            if let container {
                subject = subject.replacingOccurrences(of: "'\(container).", with: "'").replacingOccurrences(of: " in '\(container)'", with: "")
            }
            guard let bad = token.badByte else { return }
            let byte = String(format: "byte 0x%02X", bytes[bad]) + " at byte \(offset + bad + 1) of the line"
            let why: String
            switch token.place {
            case .between: why = "\(byte) is a raw control character outside any string, where JSON allows only spaces, tabs and line ends"
            case _ where bytes[bad] < 0x20: why = "\(byte) is a raw control character, which a JSON string must escape (as \\u\(String(format: "%04x", bytes[bad])))"
            default: why = "\(byte) begins a sequence that is not valid UTF-8, which JSON text must be"
            }
            found = subject.isEmpty ? why : "\(subject): \(why)"
        }
        return found
    }

    /// The refused number's field and why, when `error` is that field-less "not valid JSON"
    /// error and one number explains it; nil otherwise.
    package static func explain(_ error: DecodingError, json: Data, decode: (Data) throws -> Void) -> String? {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty else { return nil }
        let bytes = [UInt8](json)
        for number in numbers(in: bytes) {
            var replaced = bytes
            replaced.replaceSubrange(number.range, with: [0x30])
            do {
                try decode(Data(replaced))
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                continue  // the same kind of failure: this number is not (the only) cause
            } catch {}
            let literal = String(decoding: bytes[number.range], as: UTF8.self)
            return "field '\(number.path)': \(literal) \(reason(literal))"
        }
        return nil
    }

    private static func reason(_ literal: String) -> String {
        if literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            guard let value = Double(literal) else { return "is not a valid JSON number" }
            guard value.isFinite else { return "is too large for any number type" }
            return value.rounded() == value
                ? "is written with a fraction or exponent, which an integer field does not accept"
                : "is not a whole number, and the field holds integers"
        }
        if Int64(literal) == nil, Double(literal) == nil { return "is not a valid JSON number" }
        if Int64(literal) == nil { return "is outside the 64-bit integer range (\(Int64.min)…\(Int64.max))" }
        return "does not fit the field's type (a smaller or unsigned integer type)"
    }

    /// Every number token outside strings, with the path of its value.
    private static func numbers(in bytes: [UInt8]) -> [Number] {
        var found: [Number] = []
        bytes.withUnsafeBytes { bytes in
            walk(bytes) { token in
                if case .number(let path) = token.place { found.append(Number(range: token.range, path: path)) }
            }
        }
        return found
    }

    /// A token `walk` meets.
    private struct Token {
        enum Place {
            /// A string that is a value, at this path.
            case value(String)
            /// A string that is a key of the object at this path.
            case key(String)
            /// A number, at this path.
            case number(String)
            /// A byte outside any string that JSON does not allow there.
            case between
        }
        var place: Place
        var range: Range<Int>
        /// The offset of a byte JSON does not allow in the token (for `between`, the byte itself).
        var badByte: Int?
    }

    /// Calls `visit` with each string and number of `bytes`, and each control byte between
    /// tokens, with the dotted path of its value (the keys, and array elements' indices). Text
    /// that is not valid JSON is walked as far as it goes.
    private static func walk(_ bytes: UnsafeRawBufferPointer, _ visit: (Token) -> Void) {
        // Per open container: the current key (objects) or element index (arrays).
        var path: [(isObject: Bool, key: String, index: Int)] = []
        var index = 0
        var pendingKey: String?
        func pathText(_ containers: ArraySlice<(isObject: Bool, key: String, index: Int)>) -> String {
            containers.map { $0.isObject ? $0.key : String($0.index) }.joined(separator: ".")
        }
        func currentPath() -> String { pathText(path[...]) }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                var end = index + 1
                while end < bytes.count, bytes[end] != 0x22 { end += bytes[end] == 0x5C ? 2 : 1 }
                let range = (index + 1)..<min(end, bytes.count)
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                let isKey = path.last?.isObject == true && pendingKey == nil
                if isKey {
                    pendingKey = text
                    // The object's own path: the containers around it.
                    visit(Token(place: .key(pathText(path.dropLast())), range: range, badByte: badByte(inString: bytes, range)))
                } else {
                    visit(Token(place: .value(currentPath()), range: range, badByte: badByte(inString: bytes, range)))
                }
                index = end + 1
                continue
            case 0x3A:
                if let key = pendingKey, !path.isEmpty { path[path.count - 1].key = key }
            case 0x2C:
                pendingKey = nil
                if let last = path.last, !last.isObject { path[path.count - 1].index += 1 }
            case 0x7B, 0x5B:
                path.append((byte == 0x7B, "", 0))
                pendingKey = nil
            case 0x7D, 0x5D:
                _ = path.popLast()
                pendingKey = nil
            case 0x2D, 0x30...0x39:
                var end = index
                while end < bytes.count, [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(bytes[end]) || (0x30...0x39).contains(bytes[end]) { end += 1 }
                visit(Token(place: .number(currentPath()), range: index..<end))
                index = end
                continue
            case 0x09, 0x0A, 0x0D:
                break
            case ..<0x20:
                visit(Token(place: .between, range: index..<(index + 1), badByte: index))
            default:
                break
            }
            index += 1
        }
    }

    /// The offset of the first byte of the string `range` of `bytes` that JSON does not allow
    /// there: a raw control character, or the start of a sequence that is not UTF-8.
    private static func badByte(inString bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var iterator = bytes[range].makeIterator()
        var decoder = UTF8()
        var offset = range.lowerBound
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value < 0x20 { return offset }
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}
