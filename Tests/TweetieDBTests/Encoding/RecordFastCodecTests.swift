import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("RecordCodable fast path: byte compatibility with Codable")
struct RecordFastCodecTests {
    /// Bytes written by the `Codable` path for the same value.
    func codableBytes<T: Codable>(_ value: T) throws -> [UInt8] {
        try RecordEncoder().encode(RecordCodableOnly(value))
    }

    @Test func fastBytesEqualCodableBytesForRandomTweets() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<2000 {
            let tweet = RecordFastTweet.random(using: &random)
            let reference = try codableBytes(tweet)
            #expect(try RecordEncoder().encode(tweet) == reference)
            #expect(try RecordEncoder().encode(record: tweet) == reference)
        }
    }

    @Test func eachPathDecodesTheOthersBytes() throws {
        var random = SeededRandom(seed: 12)
        for _ in 0..<2000 {
            let tweet = RecordFastTweet.random(using: &random)
            let fast = try RecordEncoder().encode(record: tweet)
            let codable = try codableBytes(tweet)
            // Codable bytes through the fast decoder (automatic and explicit), fast bytes through Codable.
            #expect(try RecordDecoder().decode(RecordFastTweet.self, from: codable) == tweet)
            #expect(try codable.withUnsafeBytes { try RecordDecoder().decode(record: RecordFastTweet.self, from: $0) } == tweet)
            #expect(try RecordDecoder().decode(RecordCodableOnly<RecordFastTweet>.self, from: fast).value == tweet)
            #expect(try RecordDecoder().decode(RecordFastTweet.self, from: Data(fast)) == tweet)
        }
    }

    @Test func everyNativeTypeAndEncodableFallbackMatchCodable() throws {
        var random = SeededRandom(seed: 13)
        for _ in 0..<500 {
            let value = RecordFastEverything.random(using: &random)
            let reference = try codableBytes(value)
            let fast = try RecordEncoder().encode(value)
            #expect(fast == reference)
            #expect(try RecordDecoder().decode(RecordFastEverything.self, from: reference) == value)
            #expect(try RecordDecoder().decode(RecordCodableOnly<RecordFastEverything>.self, from: fast).value == value)
        }
    }

    @Test func recordSizesAroundTheLengthSlot() throws {
        // Bodies under 128 bytes (1-byte length), up to 16 KiB (2 bytes) and beyond (3 bytes).
        for length in [0, 1, 60, 100, 127, 128, 200, 16_000, 16_384, 40_000, 3_000_000] {
            let tweet = RecordFastTweet(
                id: 1, text: String(repeating: "x", count: length), name: "", username: "u", authorId: 2,
                created: Date(timeIntervalSinceReferenceDate: 0), imageURL: "", retweetCount: 0, favoriteCount: 0,
                isRetweet: false, inReplyToId: nil
            )
            let fast = try RecordEncoder().encode(tweet)
            #expect(fast == (try codableBytes(tweet)), "text length \(length)")
            #expect(try RecordDecoder().decode(RecordFastTweet.self, from: fast) == tweet)
        }
    }

    @Test func literalAndComputedKeysWriteTheSameBytes() throws {
        struct Pair: RecordCodable, Codable, Equatable {
            var left: Int64
            var right: String?
            init(left: Int64, right: String?) { self.left = left; self.right = right }
            func encode(to writer: inout RecordWriter) {
                let prefix = "le"
                writer.write(left, forKey: prefix + "ft")
                writer.write(right, forKey: String("right"))
            }
            init(from reader: inout RecordFieldReader) throws {
                var left: Int64?
                while let field = try reader.nextField() {
                    if field.name == "le" + "ft" { left = try field.decode(Int64.self) }
                    if field.name.string == "right" { right = try field.decodeIfPresent(String.self) }
                }
                self.left = try reader.require(left, forKey: "left")
            }
        }
        for value in [Pair(left: -5, right: nil), Pair(left: .max, right: "r")] {
            let fast = try RecordEncoder().encode(value)
            #expect(fast == (try codableBytes(value)))
            #expect(try RecordDecoder().decode(Pair.self, from: fast) == value)
        }
    }
}

@Suite("RecordCodable fast path: evolution and errors")
struct RecordFastCodecEvolutionTests {
    /// The tweet without `isRetweet` and `inReplyToId`.
    struct TweetWithoutFlags: Codable {
        var id: Int64, text: String, name: String, username: String, authorId: Int64, created: Date
        var imageURL: String, retweetCount: Int, favoriteCount: Int
    }

    /// The tweet with unknown fields before, between and after the known ones.
    struct TweetWithExtras: Codable {
        var lang: String
        var id: Int64, text: String, name: String, username: String, authorId: Int64, created: Date
        var entities: [String: [Int]]
        var imageURL: String, retweetCount: Int, favoriteCount: Int, isRetweet: Bool, inReplyToId: Int64?
        var place: RecordTestPoint?
    }

    /// The tweet with only some fields, read through Codable.
    struct TrimmedTweet: Codable, Equatable {
        var text: String
        var inReplyToId: Int64?
    }

    static let date = Date(timeIntervalSinceReferenceDate: 700_000_000.5)

    @Test func unknownFieldsAreSkipped() throws {
        let extras = TweetWithExtras(
            lang: "en", id: 7, text: "hi 🐦", name: "n", username: "u", authorId: 9, created: Self.date,
            entities: ["hashtags": [1, 2], "urls": []], imageURL: "i", retweetCount: 3, favoriteCount: 4,
            isRetweet: true, inReplyToId: 99, place: RecordTestPoint(x: 1, y: 2)
        )
        let decoded = try RecordDecoder().decode(RecordFastTweet.self, from: try RecordEncoder().encode(extras))
        #expect(decoded == RecordFastTweet(
            id: 7, text: "hi 🐦", name: "n", username: "u", authorId: 9, created: Self.date, imageURL: "i",
            retweetCount: 3, favoriteCount: 4, isRetweet: true, inReplyToId: 99
        ))
    }

    @Test func fastBytesReadByAnOlderCodableSchema() throws {
        var random = SeededRandom(seed: 21)
        for _ in 0..<200 {
            let tweet = RecordFastTweet.random(using: &random)
            let trimmed = try RecordDecoder().decode(TrimmedTweet.self, from: try RecordEncoder().encode(tweet))
            #expect(trimmed == TrimmedTweet(text: tweet.text, inReplyToId: tweet.inReplyToId))
        }
    }

    @Test func missingOptionalIsNilAndMissingRequiredThrowsLikeCodable() throws {
        let old = TweetWithoutFlags(
            id: 1, text: "t", name: "n", username: "u", authorId: 2, created: Self.date, imageURL: "i",
            retweetCount: 0, favoriteCount: 0
        )
        let bytes = try RecordEncoder().encode(old)
        func keyNotFound(_ body: () throws -> Void) -> (key: String, message: String)? {
            do {
                try body()
            } catch DecodingError.keyNotFound(let key, let context) {
                return (key.stringValue, context.debugDescription)
            } catch {
                Issue.record("unexpected error \(error)")
            }
            return nil
        }
        let fast = keyNotFound { _ = try RecordDecoder().decode(RecordFastTweet.self, from: bytes) }
        let codable = keyNotFound { _ = try RecordDecoder().decode(RecordCodableOnly<RecordFastTweet>.self, from: bytes) }
        #expect(fast?.key == "isRetweet")
        #expect(fast?.key == codable?.key)
        #expect(fast?.message == codable?.message)
        #expect(fast?.message.contains("isRetweet") == true)

        // Only the optional missing: decodes with nil.
        var tweet = RecordFastTweet(
            id: 1, text: "t", name: "n", username: "u", authorId: 2, created: Self.date, imageURL: "i",
            retweetCount: 0, favoriteCount: 0, isRetweet: false, inReplyToId: 5
        )
        tweet.inReplyToId = nil
        let withoutReply = try RecordEncoder().encode(RecordCodableOnly(tweet))
        #expect(try RecordDecoder().decode(RecordFastTweet.self, from: withoutReply).inReplyToId == nil)
    }

    /// The error both paths throw for `bytes`, as comparable text.
    func errors<Fast: RecordCodable & Codable>(_ type: Fast.Type, _ bytes: [UInt8]) -> (fast: String, codable: String) {
        func describe(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "no error"
            } catch let error as DecodingError {
                switch error {
                case .typeMismatch(let type, let context):
                    return "typeMismatch \(type) \(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
                case .valueNotFound(let type, let context):
                    return "valueNotFound \(type) \(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
                case .keyNotFound(let key, let context):
                    return "keyNotFound \(key.stringValue) \(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
                case .dataCorrupted(let context):
                    return "dataCorrupted \(context.codingPath.map(\.stringValue)) \(context.debugDescription)"
                @unknown default:
                    return "\(error)"
                }
            } catch {
                return "not a DecodingError: \(error)"
            }
        }
        return (describe { _ = try RecordDecoder().decode(Fast.self, from: bytes) },
                describe { _ = try RecordDecoder().decode(RecordCodableOnly<Fast>.self, from: bytes) })
    }

    @Test func typeMismatchAndWidthErrorsMatchCodable() throws {
        struct Small: Codable, RecordCodable {
            var count: Int8
            var ratio: Float
            var flag: Bool
            init(from reader: inout RecordFieldReader) throws {
                var count: Int8?, ratio: Float?, flag: Bool?
                while let field = try reader.nextField() {
                    switch field.name {
                    case "count": count = try field.decode(Int8.self)
                    case "ratio": ratio = try field.decode(Float.self)
                    case "flag": flag = try field.decode(Bool.self)
                    default: break
                    }
                }
                self.count = try reader.require(count, forKey: "count")
                self.ratio = try reader.require(ratio, forKey: "ratio")
                self.flag = try reader.require(flag, forKey: "flag")
            }
            func encode(to writer: inout RecordWriter) {
                writer.write(count, forKey: "count")
                writer.write(ratio, forKey: "ratio")
                writer.write(flag, forKey: "flag")
            }
        }
        struct Stored<C: Encodable, R: Encodable, F: Encodable>: Encodable {
            var count: C
            var ratio: R
            var flag: F
            enum CodingKeys: CodingKey { case count, ratio, flag }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(count, forKey: .count)
                try container.encode(ratio, forKey: .ratio)
                try container.encode(flag, forKey: .flag)
            }
        }
        struct Nil: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            }
        }
        let cases: [[UInt8]] = [
            try RecordEncoder().encode(Stored(count: UInt64(100), ratio: 0.5 as Double, flag: true)),   // widths convert
            try RecordEncoder().encode(Stored(count: 300, ratio: Float(1), flag: false)),              // does not fit Int8
            try RecordEncoder().encode(Stored(count: -129, ratio: Float(1), flag: false)),
            try RecordEncoder().encode(Stored(count: "7", ratio: Float(1), flag: false)),              // type mismatch
            try RecordEncoder().encode(Stored(count: 1, ratio: 0.1 as Double, flag: false)),          // inexact Float
            try RecordEncoder().encode(Stored(count: 1, ratio: Float(2), flag: 1)),                     // Bool mismatch
            try RecordEncoder().encode(Stored(count: Nil(), ratio: Float(2), flag: true)),              // nil where required
        ]
        var successes = 0
        for bytes in cases {
            let (fast, codable) = errors(Small.self, bytes)
            #expect(fast == codable)
            if fast == "no error" { successes += 1 }
        }
        #expect(successes == 1)
    }

    @Test func encodableFallbackFailureIsThrownByTheEncoder() throws {
        struct Deep: RecordCodable, Codable {
            var tree: RecordTestTree
            init(tree: RecordTestTree) { self.tree = tree }
            init(from reader: inout RecordFieldReader) throws {
                var tree: RecordTestTree?
                while let field = try reader.nextField() {
                    if field.name.matches("tree") { tree = try field.decode(RecordTestTree.self) }
                }
                self.tree = try reader.require(tree, forKey: "tree")
            }
            func encode(to writer: inout RecordWriter) { writer.write(tree, forKey: "tree") }
        }
        #expect(throws: EncodingError.self) { try RecordEncoder().encode(Deep(tree: .depth(200))) }
        let shallow = Deep(tree: .depth(10))
        let bytes = try RecordEncoder().encode(shallow)
        #expect(bytes == (try RecordEncoder().encode(RecordCodableOnly(shallow))))
        #expect(try RecordDecoder().decode(Deep.self, from: bytes).tree == shallow.tree)
    }
}

@Suite("RecordCodable fast path: corrupt input")
struct RecordFastCodecCorruptInputTests {
    @Test func everyTruncationThrows() throws {
        var random = SeededRandom(seed: 31)
        for _ in 0..<20 {
            let bytes = try RecordEncoder().encode(RecordFastTweet.random(using: &random))
            for length in 0..<bytes.count {
                #expect(throws: DecodingError.self, "truncated at \(length)") {
                    _ = try RecordDecoder().decode(RecordFastTweet.self, from: Array(bytes[0..<length]))
                }
            }
            // One extra byte is rejected too.
            #expect(throws: DecodingError.self) { _ = try RecordDecoder().decode(RecordFastTweet.self, from: bytes + [0]) }
        }
    }

    @Test func truncatedBodiesInsideAValidFrameThrow() throws {
        // Cut the container body but fix up the length, so that only entries are broken.
        // The last field is required (no `inReplyToId`), so every cut loses something required.
        var random = SeededRandom(seed: 32)
        var tweet = RecordFastTweet.random(using: &random)
        tweet.inReplyToId = nil
        let bytes = try RecordEncoder().encode(tweet)
        var header = 2
        while bytes[header] >= 0x80 { header += 1 }
        header += 1
        let body = Array(bytes[header...])
        for length in 0..<body.count {
            var framed: [UInt8] = [RecordFormat.version, RecordFormat.Tag.keyed]
            framed.appendVarint(UInt64(length))
            framed += body[0..<length]
            #expect(throws: DecodingError.self, "body cut at \(length)") {
                _ = try RecordDecoder().decode(RecordFastTweet.self, from: framed)
            }
        }
    }

    @Test func randomFlipsNeverCrash() throws {
        var random = SeededRandom(seed: 33)
        var thrown = 0
        var decoded = 0
        for round in 0..<4000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = try RecordEncoder().encode(RecordFastTweet.random(using: &random))
            } else {
                bytes = try RecordEncoder().encode(RecordFastEverything.random(using: &random))
            }
            random.corrupt(&bytes)
            do {
                if round % 2 == 0 {
                    _ = try RecordDecoder().decode(RecordFastTweet.self, from: bytes)
                } else {
                    _ = try RecordDecoder().decode(RecordFastEverything.self, from: bytes)
                }
                decoded += 1
            } catch is DecodingError {
                thrown += 1
            }
        }
        #expect(thrown + decoded == 4000)
        #expect(thrown > 1000)
    }

    @Test func malformedEntriesMatchTheCheckedReader() throws {
        // Hand-made entries the inline fast path must hand to the checked path.
        let cases: [[UInt8]] = [
            [0x01, 0x0C, 0x02, 0x81, 0x00],                                   // key length as a 2-byte varint, then nothing
            [0x01, 0x0C, 0x04, 0x02, 0x69, 0x64, 0x7F],                       // unknown tag 0x7F
            [0x01, 0x0C, 0x0E, 0x02, 0x69, 0x64, 0x04] + Array(repeating: 0xFF, count: 11), // varint too long
            [0x01, 0x0C, 0x05, 0x02, 0x69, 0x64, 0x07, 0x05],                 // string longer than the body
            [0x01, 0x0C, 0x07, 0x02, 0x69, 0x64, 0x07, 0x82, 0x80, 0x80],     // runaway length varint
            [0x01, 0x0C, 0x05, 0x02, 0x69, 0x64, 0x05, 0x00],                 // Double cut short
            [0x01, 0x0C, 0x06, 0x02, 0x69, 0x64, 0x07, 0x01, 0xFF],           // invalid UTF-8 for "id"
        ]
        struct OnlyID: Codable, RecordCodable {
            var id: String
            init(id: String) { self.id = id }
            init(from reader: inout RecordFieldReader) throws {
                var id: String?
                while let field = try reader.nextField() {
                    if case "id" = field.name { id = try field.decode(String.self) }
                }
                self.id = try reader.require(id, forKey: "id")
            }
            func encode(to writer: inout RecordWriter) { writer.write(id, forKey: "id") }
        }
        for bytes in cases {
            #expect(throws: DecodingError.self, "\(bytes)") { _ = try RecordDecoder().decode(OnlyID.self, from: bytes) }
        }
        // Multi-byte strings take the checked UTF-8 path and still decode.
        let text = OnlyID(id: "é🐦中")
        #expect(try RecordDecoder().decode(OnlyID.self, from: try RecordEncoder().encode(text)).id == text.id)
    }
}

@Suite("RecordCodable fast path: conformance lookup")
struct RecordCodableLookupTests {
    @Test func lookupAnswersPerTypeAlsoConcurrently() async throws {
        #expect(RecordCodableLookup.fastType(RecordFastTweet.self) == RecordFastTweet.self)
        #expect(RecordCodableLookup.fastType(RecordTestTweet.self) == nil)
        #expect(RecordCodableLookup.fastType(RecordCodableOnly<RecordFastTweet>.self) == nil)
        let tweet = RecordFastTweet(
            id: 3, text: "t", name: "n", username: "u", authorId: 4, created: Date(timeIntervalSinceReferenceDate: 1),
            imageURL: "i", retweetCount: 5, favoriteCount: 6, isRetweet: true, inReplyToId: nil
        )
        let bytes = try RecordEncoder().encode(tweet)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<500 {
                        // Alternate fast and Codable-only types so the slots keep changing.
                        if (task + round) % 2 == 0 {
                            guard try RecordDecoder().decode(RecordFastTweet.self, from: bytes) == tweet else { return false }
                        } else {
                            guard try RecordDecoder().decode(RecordCodableOnly<RecordFastTweet>.self, from: bytes).value == tweet,
                                  try RecordEncoder().encode(RecordTestTweet.sample(round)) == RecordEncoder().encode(RecordCodableOnly(RecordTestTweet.sample(round)))
                            else { return false }
                        }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
