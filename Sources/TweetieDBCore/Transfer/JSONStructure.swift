import Foundation

/// Checks the shape of one JSON text before a parser sees it: nesting depth and duplicate keys.
///
/// Rules: an import line or header whose arrays and objects nest deeper than
/// ``JSONNesting/maximumDepth`` is refused (see ``JSONNesting``), and so is an object with the
/// same key twice. Foundation's parsers accept duplicate keys silently — `JSONDecoder` keeps the
/// first, `JSONSerialization` the last — so a line such as `{"collection":"users",
/// "collection":"tweets",…}` would be read one way here and another way elsewhere; it is refused.
/// Keys are compared after unescaping (`"a"` and `"\u0061"` are the same key). One linear pass;
/// strings are not allocated unless they hold escapes, or an object has many keys.
///
/// ```swift
/// if case .duplicateKey(let key) = JSONStructure.check(bytes) { print("\(key) appears twice") }
/// ```
package enum JSONStructure {
    /// What is wrong with a JSON text's shape.
    package enum Problem: Equatable, Sendable {
        /// Arrays and objects nest deeper than ``JSONNesting/maximumDepth``.
        case tooDeep
        /// An object has the key twice (the key, unescaped).
        case duplicateKey(String)
    }

    /// An open array or object.
    private struct Frame {
        var isObject: Bool
        /// Where this object's keys start in the shared key list.
        var firstKey: Int
        /// The keys, once the object has more than `linearLimit` of them.
        var set: Set<String>?
    }

    /// Objects with up to this many keys are checked by comparing bytes, without allocating.
    private static let linearLimit = 32

    /// The first problem in `bytes`, or nil. Text that is not valid JSON is checked as far as it
    /// goes; the parser reports what else is wrong with it.
    package static func check(_ bytes: UnsafeRawBufferPointer) -> Problem? {
        var frames: [Frame] = []
        var keys: [(start: Int, end: Int, escaped: Bool)] = []
        var expectKey = false
        var index = 0
        let count = bytes.count
        while index < count {
            switch bytes[index] {
            case 0x22:
                let start = index + 1
                var end = start, escaped = false
                while end < count, bytes[end] != 0x22 {
                    if bytes[end] == 0x5C { escaped = true; end += 1 }
                    end += 1
                }
                end = min(end, count)
                if expectKey, let frame = frames.last, frame.isObject {
                    let key = (start: start, end: end, escaped: escaped)
                    if frame.set == nil {
                        for other in keys[frame.firstKey...] where same(other, key, in: bytes) { return .duplicateKey(text(key, in: bytes)) }
                        keys.append(key)
                        if keys.count - frame.firstKey > linearLimit {
                            frames[frames.count - 1].set = Set(keys[frame.firstKey...].map { text($0, in: bytes) })
                        }
                    } else if frames[frames.count - 1].set!.insert(text(key, in: bytes)).inserted == false {
                        return .duplicateKey(text(key, in: bytes))
                    }
                    expectKey = false
                }
                index = end + 1
                continue
            case 0x7B, 0x5B:
                let isObject = bytes[index] == 0x7B
                frames.append(Frame(isObject: isObject, firstKey: keys.count))
                if frames.count > JSONNesting.maximumDepth { return .tooDeep }
                expectKey = isObject
            case 0x7D, 0x5D:
                if let frame = frames.popLast() { keys.removeSubrange(frame.firstKey...) }
                expectKey = false
            case 0x2C:
                expectKey = frames.last?.isObject ?? false
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// ``check(_:)-(UnsafeRawBufferPointer)`` for a byte array.
    package static func check(_ bytes: [UInt8]) -> Problem? { bytes.withUnsafeBytes { check($0) } }

    private static func same(_ a: (start: Int, end: Int, escaped: Bool), _ b: (start: Int, end: Int, escaped: Bool), in bytes: UnsafeRawBufferPointer) -> Bool {
        if a.escaped || b.escaped { return text(a, in: bytes) == text(b, in: bytes) }
        return a.end - a.start == b.end - b.start && memcmp(bytes.baseAddress! + a.start, bytes.baseAddress! + b.start, a.end - a.start) == 0
    }

    /// The key's text, unescaped (as written when it is not a valid JSON string).
    private static func text(_ key: (start: Int, end: Int, escaped: Bool), in bytes: UnsafeRawBufferPointer) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end])
        if key.escaped, let decoded = try? JSONDecoder().decode(String.self, from: Data([0x22] + raw + [0x22])) { return decoded }
        return String(decoding: raw, as: UTF8.self)
    }
}
