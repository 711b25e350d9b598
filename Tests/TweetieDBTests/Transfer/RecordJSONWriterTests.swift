// The value types below exist only to be encoded by this suite, each exercising one shape of
// Codable (nested containers, keys out of order, special values): they are the test's data.
import Foundation
import Testing
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

/// RecordJSONWriter must write exactly what `RecordJSON.encoder()` writes: exports are compared
/// byte for byte across runs, and either may write a given value.
@Suite("RecordJSONWriter: the bytes of JSONEncoder")
struct RecordJSONWriterTests {
    /// Every field type a record is likely to hold.
    struct Everything: Codable {
        var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
        var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
        var double: Double, float: Float, bool: Bool
        var text: String, optionalText: String?, optionalNumber: Int64?
        var date: Date, optionalDate: Date?, url: URL, data: Data, uuid: UUID
        var tags: [String], numbers: [Double], nested: Nested?, nestedList: [Nested]
        var byName: [String: Int], byNumber: [Int: String], mood: Mood, level: Level
        var Zebra: Int, alpha: Int, _under: Int, é: Int, a10: Int, a9: Int
    }

    struct Nested: Codable { var name: String; var values: [Int64?]; var deeper: [String: [Bool]] }
    enum Mood: String, Codable { case calm, loud = "LOUD/ish" }
    enum Level: Codable { case low, high(Int), named(label: String) }

    static func randomString(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", "/", "\"", "\\", "\n", "\t", "\r", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}",
                      "é", "ß", "\u{2028}", "😀", "日本", " ", "'", "<", "&", "e\u{301}"]
        let count = Int.random(in: 0...12, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func randomDouble(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Double.random(in: -1...1, using: &random)
        case 1: return Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &random))
        case 2: return [0, -0.0, 1, 0.1, 1e20, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e15, 1e16, 123456789.125].randomElement(using: &random)!
        case 3: return Double.random(in: -1e300...1e300, using: &random)
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 1.5
        }
    }

    static func random(_ random: inout SeededRandom) -> Everything {
        func nested() -> Nested {
            Nested(name: randomString(&random),
                   values: (0..<Int.random(in: 0...3, using: &random)).map { _ in Bool.random(using: &random) ? Int64.random(in: .min ... .max, using: &random) : nil },
                   deeper: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &random)).map { i in (randomString(&random) + "\(i)", [Bool.random(using: &random)]) }))
        }
        return Everything(
            int: .random(in: .min ... .max, using: &random), int8: .random(in: .min ... .max, using: &random),
            int16: .random(in: .min ... .max, using: &random), int32: .random(in: .min ... .max, using: &random),
            int64: [Int64.min, .max, 0, -1, .random(in: .min ... .max, using: &random)].randomElement(using: &random)!,
            uint: .random(in: .min ... .max, using: &random), uint8: .random(in: .min ... .max, using: &random),
            uint16: .random(in: .min ... .max, using: &random), uint32: .random(in: .min ... .max, using: &random),
            uint64: [UInt64.max, 0, 9, 10, .random(in: .min ... .max, using: &random)].randomElement(using: &random)!,
            double: randomDouble(&random), float: Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &random)),
            bool: .random(using: &random), text: randomString(&random),
            optionalText: Bool.random(using: &random) ? randomString(&random) : nil,
            optionalNumber: Bool.random(using: &random) ? .random(in: .min ... .max, using: &random) : nil,
            date: Date(timeIntervalSince1970: Double(Int64.random(in: -62_000_000_000_000...80_000_000_000_000, using: &random)) / 1000),
            optionalDate: Bool.random(using: &random) ? Date(timeIntervalSince1970: .random(in: 0...2e9, using: &random)) : nil,
            url: URL(string: "https://example.com/\(Int.random(in: 0...999, using: &random))/a b?q=\"x\"".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)!,
            data: Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            uuid: UUID(uuid: (UInt8.random(in: 0...255, using: &random), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8.random(in: 0...255, using: &random))),
            tags: (0..<Int.random(in: 0...4, using: &random)).map { _ in randomString(&random) },
            numbers: (0..<Int.random(in: 0...4, using: &random)).map { _ in randomDouble(&random) },
            nested: Bool.random(using: &random) ? nested() : nil,
            nestedList: (0..<Int.random(in: 0...2, using: &random)).map { _ in nested() },
            byName: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...5, using: &random)).map { i in (randomString(&random) + String(i), i) }),
            byNumber: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...5, using: &random)).map { i in (i * 7 - 10, randomString(&random)) }),
            mood: Bool.random(using: &random) ? .calm : .loud,
            level: [.low, .high(.random(in: -5...5, using: &random)), .named(label: randomString(&random))].randomElement(using: &random)!,
            Zebra: 1, alpha: 2, _under: 3, é: 4, a10: 5, a9: 6)
    }

    static func foundation<T: Encodable>(_ value: T) throws -> [UInt8] { Array(try RecordJSON.encoder().encode(value)) }

    @Test func generatedValuesMatchJSONEncoder() throws {
        var random = SeededRandom(seed: 0x1503)
        var writer = RecordJSONWriter()
        for _ in 0..<2_000 {
            let value = Self.random(&random)
            let expected = try Self.foundation(value)
            let written = try writer.encode(value)
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
        }
    }

    @Test func everyControlCharacterAndEscape() throws {
        var text = ""
        for scalar in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        text += "\u{2028}\u{2029}\u{FFFF}\u{10FFFF}é😀"
        var writer = RecordJSONWriter()
        #expect(try writer.encode([text: text]) == Self.foundation([text: text]))
    }

    /// Keys encoded in any order, with case, digits and non-ASCII, come out in Foundation's order.
    struct Shuffled: Encodable {
        var keys: [String]
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (position, key) in keys.enumerated() { try container.encode(position, forKey: Key(stringValue: key)) }
        }
    }

    @Test func keyOrderAndKeysEncodedTwice() throws {
        var random = SeededRandom(seed: 42)
        let pool = ["b", "A", "a", "B", "a10", "a9", "é", "e\u{301}", "e", "è", "Z", "_", "aB", "ab", "ß", "ss", "ｆ", "\u{FF61}", "😀",
                    "\u{7f}", "1", "10", "9", "", "idStr", "id"]
        var writer = RecordJSONWriter()
        for round in 0..<300 {
            // Repeat one order now and then, so the cached permutation is used and then invalidated.
            let keys = round % 3 == 0 ? pool : (0..<Int.random(in: 0...12, using: &random)).map { _ in pool.randomElement(using: &random)! }
            #expect(try writer.encode(Shuffled(keys: keys)) == Self.foundation(Shuffled(keys: keys)), "\(keys)")
        }
        // Equal as Strings, not as bytes: the order of one must not be reused for the other.
        for keys in [["\u{e9}", "f"], ["e\u{301}", "f"], ["\u{e9}", "f"]] {
            #expect(try writer.encode(Shuffled(keys: keys)) == Self.foundation(Shuffled(keys: keys)), "\(keys)")
        }
    }

    /// Values this writer hands to JSONEncoder still come out as JSONEncoder writes them.
    struct Odd: Encodable {
        var decimal: Decimal = Decimal(string: "12.50")!
        var number = 3
    }

    struct EncodesNothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct SuperEncoding: Encodable {
        enum Keys: CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try "x".encode(to: container.superEncoder())
        }
    }

    @Test func valuesOutsideTheFastPathAreWrittenByJSONEncoder() throws {
        var writer = RecordJSONWriter()
        #expect(try writer.encode(Odd()) == Self.foundation(Odd()))
        #expect(try writer.encode([EncodesNothing()]) == Self.foundation([EncodesNothing()]))
        #expect(try writer.encode(SuperEncoding()) == Self.foundation(SuperEncoding()))
        #expect(try writer.encode(Date(timeIntervalSince1970: 1.5)) == Self.foundation(Date(timeIntervalSince1970: 1.5)))
        #expect(try writer.encode(7) == Self.foundation(7))
    }

    @Test func invalidValuesThrowLikeJSONEncoder() {
        var writer = RecordJSONWriter()
        #expect(throws: EncodingError.self) { try writer.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try writer.encode(["x": Float.infinity]) }
        #expect(throws: EncodingError.self) { try writer.encode(EncodesNothing()) }
    }

    /// Nested containers stay writable after they are handed out: members written to a parent
    /// and to its nested containers in turn, a nested container asked for twice under one key,
    /// and arrays of objects filled after their siblings, all land where JSONEncoder puts them.
    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case zeta, alpha, inner, list, omega }
        enum InnerKeys: String, CodingKey { case b, a, c }
        func encode(to encoder: any Encoder) throws {
            var top = encoder.container(keyedBy: Keys.self)
            var inner = top.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try top.encode(1, forKey: .zeta)
            var list = top.nestedUnkeyedContainer(forKey: .list)
            try inner.encode("first", forKey: .b)
            var element = list.nestedContainer(keyedBy: InnerKeys.self)
            try list.encode(true)
            try top.encode([3, 2], forKey: .alpha)
            try element.encode(2.5, forKey: .c)
            var again = top.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try again.encode(Date(timeIntervalSince1970: 86_400.25), forKey: .a)
            try inner.encodeNil(forKey: .c)
            var deeper = list.nestedUnkeyedContainer()
            try element.encode("x/y", forKey: .a)
            try deeper.encode(UInt64.max)
            try top.encode("end", forKey: .omega)
            try deeper.encode(-0.0)
        }
    }

    @Test func nestedContainersWrittenInTurn() throws {
        var writer = RecordJSONWriter()
        let expected = try Self.foundation(Interleaved())
        #expect(try writer.encode(Interleaved()) == expected, "\(String(decoding: expected, as: UTF8.self))")
        #expect(try writer.encode([Interleaved(), Interleaved()]) == Self.foundation([Interleaved(), Interleaved()]))
    }

    /// A value that catches an error of the encoder and goes on: JSONEncoder leaves the failed
    /// member out, and so must the writer (it hands the value to JSONEncoder).
    struct Forgiving: Encodable {
        enum Keys: CodingKey { case a, b, c, d }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try? container.encode(Double.nan, forKey: .a)
            try container.encode(1, forKey: .b)
            try? container.encode([EncodesNothing()], forKey: .c)
            try? container.encode(Decimal(string: "0.1")!, forKey: .d)
        }
    }

    @Test func errorsCaughtByTheValueLeaveNoTrace() throws {
        var writer = RecordJSONWriter()
        #expect(try writer.encode(Forgiving()) == Self.foundation(Forgiving()))
        #expect(try writer.encode(["k": Forgiving()]) == Self.foundation(["k": Forgiving()]))
    }

    /// A copy of a writer used on another thread at the same time writes its own bytes (it gets
    /// its own scratch; sharing one would mix the two values' text).
    @Test func copiesOfAWriterAreIndependent() throws {
        var random = SeededRandom(seed: 0x1803)
        let values = (0..<400).map { _ in Self.random(&random) }
        let expected = try values.map { try Self.foundation($0) }
        var original = RecordJSONWriter()
        _ = try original.encode(values[0])
        /// What the threads share: the writer they each copy, and one result slot per thread.
        struct Shared: @unchecked Sendable {
            let template: RecordJSONWriter
            let slots: UnsafeMutableBufferPointer<[[UInt8]]>
        }
        var results = [[[UInt8]]](repeating: [], count: 4)
        results.withUnsafeMutableBufferPointer { slots in
            let shared = Shared(template: original, slots: slots)
            DispatchQueue.concurrentPerform(iterations: slots.count) { worker in
                var writer = shared.template
                shared.slots[worker] = values.map { (try? writer.encode($0)) ?? [] }
            }
        }
        for result in results {
            #expect(result == expected)
        }
    }

    /// The eight-bytes-at-a-time scan of string escaping finds every byte that needs escaping,
    /// at every position of the word, and no other.
    @Test func escapeScanFindsEveryByteToEscape() {
        func expected(_ word: UInt64) -> Bool {
            (0..<8).contains { position in
                let byte = UInt8(truncatingIfNeeded: word >> (8 * position))
                return byte < 0x20 || byte == 0x22 || byte == 0x5C
            }
        }
        let plain = UInt64(0x61) &* 0x0101_0101_0101_0101 // aaaaaaaa
        for byte in UInt64(0)...255 {
            for position in 0..<8 {
                let word = plain & ~(0xFF << (8 * position)) | byte << (8 * position)
                #expect(JSONValueText.needsEscape(word) == expected(word), "byte \(byte) at \(position)")
            }
        }
        var random = SeededRandom(seed: 0x5A4)
        for _ in 0..<100_000 {
            let word = random.next()
            #expect(JSONValueText.needsEscape(word) == expected(word), "\(String(word, radix: 16))")
        }
    }
}
