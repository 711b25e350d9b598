import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

/// The pieces of an import's one-pass fast path: a record line is parsed once, refusing whatever it
/// cannot decide alone (the exact checks then run), and written keys are remembered compactly.
@Suite("Import fast path: the one-pass parse and the key set")
struct ImportFastPathTests {
    static func parses(_ json: String, depth: Int = 0) -> Bool {
        let bytes = Array(json.utf8)
        return bytes.withUnsafeBytes { (try? JSONTape.parse($0, depth: depth, rejectingAmbiguousKeys: true)) != nil }
    }

    @Test(arguments: [
        (#"{"a":1,"b":2}"#, true),
        (#"{"a":1,"a":2}"#, false),
        (#"{"a":{"b":1},"b":{"a":1}}"#, true),
        (#"{"a":{"b":1,"b":2}}"#, false),
        (#"[{"a":1},{"a":2}]"#, true),
        (#"{"x":[1,{"y":1,"y":2}]}"#, false),
        (#"{"ab":1,"ba":2,"a":3,"b":4}"#, true),
        (#"{"a":1,"\u0062":2}"#, false), // an escaped key is left to the exact check, even when distinct
        (#"{"a\"":1}"#, false),
        (#"{"é":1,"e":2}"#, true),
        (#"{}"#, true),
        // Keys in ascending order are told apart by order alone; any other order pairwise.
        (#"{"a":1,"b":2,"c":3}"#, true),
        (#"{"a":1,"ab":2,"b":3}"#, true),
        (#"{"a":1,"b":2,"b":3}"#, false),
        (#"{"a":1,"b":2,"c":3,"a":4}"#, false),
        (#"{"ab":1,"a":2}"#, true),
        (#"{"b":1,"a":2,"b":3}"#, false),
        (#"{"id":1,"idStr":"1","text":"t","text":"u"}"#, false),
    ] as [(String, Bool)])
    func objectsWithKeysItCannotTellApartAreRefused(json: String, accepted: Bool) {
        #expect(Self.parses(json) == accepted, "\(json)")
        // Without the option, the same texts are valid JSON.
        let bytes = Array(json.utf8)
        #expect(bytes.withUnsafeBytes { (try? JSONTape.parse($0)) != nil }, "\(json)")
    }

    /// The string scan reads eight bytes at a time until a word holds a byte it must look at: a
    /// quote, a backslash, a control character or a non-ASCII byte at every offset in and across
    /// those words is found, and the tape answers what JSONDecoder answers.
    @Test func everyByteThatEndsOrBreaksAStringIsFoundWhereverItLies() throws {
        let specials: [[UInt8]] = [
            Array(#"""#.utf8), Array(#"\"#.utf8), Array(#"\n"#.utf8), Array(#"\""#.utf8), Array(#"\u00e9"#.utf8),
            Array(#"\x"#.utf8), Array(#"\u00g9"#.utf8), [0x01], [0x09], [0x1F], [0x7F], Array("é".utf8), Array("😀".utf8),
            [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0x20], [0x21], [0x23], [0x5B], [0x5D],
        ]
        for special in specials {
            for length in 0..<26 {
                for offset in 0...length {
                    var text = Array(#"{"k":""#.utf8) + [UInt8](repeating: 0x61, count: length)
                    text.insert(contentsOf: special, at: 6 + offset)
                    text += Array(#""}"#.utf8)
                    let expected = try? JSONDecoder().decode([String: String].self, from: Data(text))
                    let found = text.withUnsafeBytes { bytes -> String?? in
                        guard let tape = try? JSONTape.parse(bytes) else { return .some(nil) }
                        return tape.entries.withUnsafeBufferPointer { entries in
                            .some(try? JSONTapeView(entries: entries, bytes: bytes).string(entries.count - 1))
                        }
                    }
                    #expect(found == .some(expected?["k"]), "\(special) at \(offset) of \(length): tape \(String(describing: found)), JSONDecoder \(String(describing: expected))")
                }
            }
        }
    }

    @Test func objectsWithMoreKeysThanItComparesAreRefused() {
        let keys = { (count: Int) in "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}" }
        #expect(Self.parses(keys(JSONTape.duplicateCheckLimit)))
        #expect(!Self.parses(keys(JSONTape.duplicateCheckLimit + 1)))
    }

    @Test func theEnclosingDepthCountsTowardsTheLimit() {
        let limit = JSONNesting.maximumDepth
        let nested = { (levels: Int) in String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        #expect(Self.parses(nested(limit - 1), depth: 1))
        #expect(!Self.parses(nested(limit), depth: 1))
        #expect(Self.parses(nested(limit - 2), depth: 2))
        #expect(!Self.parses(nested(limit - 1), depth: 2))
    }

    @Test func keysOfEveryLengthAreTold() throws {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        defer { store.close() }
        let posts = try store.descriptor(for: Post.self), members = try store.descriptor(for: Member.self)
        // Keys that pack to the same bits unless their lengths are kept: [], [0], [0, 0], …, and
        // 8-byte keys beside 7-byte ones, and longer keys.
        var keys: [[UInt8]] = (0...12).map { [UInt8](repeating: 0, count: $0) }
        keys += [[1], [0, 1], [1, 0], [0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                 [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], Array("a-key-longer-than-8".utf8)]
        var set = ImportKeySet()
        for key in keys {
            let inserted = key.withUnsafeBytes { set.insert($0, into: posts) }
            #expect(inserted, "\(key)")
        }
        for key in keys {
            let again = key.withUnsafeBytes { set.insert($0, into: posts) }, elsewhere = key.withUnsafeBytes { set.insert($0, into: members) }
            #expect(!again, "a second \(key) is a duplicate")
            #expect(elsewhere, "\(key) in another collection is not")
        }
        #expect(set.count == 2 * keys.count)
    }

    @Test func keysInAndOutOfOrderAreToldLikeASet() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let posts = try store.descriptor(for: Post.self)
        // Runs of ascending keys broken by keys below them, repeats of both, keys of 7 and 8 bytes:
        // every insert must answer what a plain set answers.
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var set = ImportKeySet(), reference = Set<[UInt8]>()
            var next: UInt64 = 1_000
            for _ in 0..<2_000 {
                let value: UInt64
                switch UInt64.random(in: 0..<10, using: &generator) {
                case 0..<6: next += UInt64.random(in: 0...3, using: &generator); value = next // ascending, sometimes repeated
                case 6..<8: value = UInt64.random(in: 900...next, using: &generator) // below the run's end
                default: value = next + UInt64.random(in: 1...50, using: &generator) // ahead: later keys fall below it
                }
                let width = round % 2 == 0 ? 8 : 7
                let key = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
                let inserted = key.withUnsafeBytes { set.insert($0, into: posts) }
                #expect(inserted == reference.insert(key).inserted, "round \(round): \(value)")
            }
            #expect(set.count == reference.count)
        }
    }

    @Test func aDuplicateFieldInAnExportedLineIsStillReportedByName() throws {
        let store = try TransferTests.seeded()
        defer { store.close() }
        var text = String(decoding: try TransferTests.export(store), as: UTF8.self)
        text = text.replacingOccurrences(of: #""handle":"ashfurrow""#, with: #""handle":"ashfurrow","handle":"ash""#)
        let target = try Store.temporary(collections: [Post.self, Member.self])
        defer { target.close() }
        #expect {
            try TransferTests.importBytes(Array(text.utf8), into: target)
        } throws: { error in
            "\(error)".contains("the field 'handle' appears more than once")
        }
        #expect(try target.read { try $0.count(Post.self) } == 0)
    }
}
