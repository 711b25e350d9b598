import Foundation

/// Finds the number a record's decoder refused, and says why.
///
/// Swift 6.3's `JSONDecoder` reports a number that does not fit its field (`99999999999999999999`
/// or `1.5` for an `Int64`, `1e400` anywhere) as "The given data was not valid JSON." with no
/// field. For that error only, each number in the record is replaced by `0` in turn and the
/// record decoded again: the number whose replacement makes that error go away is the one
/// refused. Rules: used on the failure path only (it decodes once per number); the message names
/// the field (a dotted path for nested values) and the reason.
///
/// ```swift
/// let why = JSONNumberDiagnosis.explain(error, json: json) { _ = try decoder.decode(User.self, from: $0) }
/// // "field 'id': 99999999999999999999 is outside the 64-bit integer range (…)"
/// ```
package enum JSONNumberDiagnosis {
    /// A number in the text: its bytes and the path of the value it is.
    private struct Number {
        var range: Range<Int>
        var path: String
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
        // Per open container: the current key (objects) or element index (arrays).
        var path: [(isObject: Bool, key: String, index: Int)] = []
        var index = 0
        var pendingKey: String?
        func currentPath() -> String {
            path.map { $0.isObject ? $0.key : String($0.index) }.joined(separator: ".")
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:
                var end = index + 1
                while end < bytes.count, bytes[end] != 0x22 { end += bytes[end] == 0x5C ? 2 : 1 }
                let text = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
                if let last = path.last, last.isObject, pendingKey == nil { pendingKey = text }
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
                found.append(Number(range: index..<end, path: currentPath()))
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return found
    }
}
