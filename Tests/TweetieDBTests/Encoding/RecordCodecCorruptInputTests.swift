import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Record codec corrupt input")
struct RecordCodecCorruptInputTests {
    @Test func everyTruncationThrows() throws {
        let samples: [[UInt8]] = [
            try RecordEncoder().encode(RecordTestTweet.sample(4)),
            try RecordEncoder().encode(RecordTestEverything.sample()),
        ]
        for bytes in samples {
            for length in 0..<bytes.count {
                let prefix = Array(bytes[0..<length])
                #expect(throws: DecodingError.self, "truncated at \(length)") {
                    if bytes == samples[0] {
                        _ = try RecordDecoder().decode(RecordTestTweet.self, from: prefix)
                    } else {
                        _ = try RecordDecoder().decode(RecordTestEverything.self, from: prefix)
                    }
                }
            }
        }
    }

    @Test func truncationErrorNamesTheOffset() throws {
        let bytes = try RecordEncoder().encode(RecordTestTweet.sample(1))
        do {
            _ = try RecordDecoder().decode(RecordTestTweet.self, from: Array(bytes.dropLast(3)))
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("offset"))
        }
    }

    @Test func randomByteFlipsNeverCrash() throws {
        var random = SeededRandom(seed: 7)
        let tweetBytes = try RecordEncoder().encode(RecordTestTweet.sample(5))
        let everythingBytes = try RecordEncoder().encode(RecordTestEverything.sample())
        var thrown = 0
        var decoded = 0
        for round in 0..<6000 {
            var bytes = round % 2 == 0 ? tweetBytes : everythingBytes
            random.corrupt(&bytes)
            do {
                if round % 2 == 0 {
                    _ = try RecordDecoder().decode(RecordTestTweet.self, from: bytes)
                } else {
                    _ = try RecordDecoder().decode(RecordTestEverything.self, from: bytes)
                }
                decoded += 1
            } catch is DecodingError {
                thrown += 1
            }
        }
        #expect(thrown + decoded == 6000)
        #expect(thrown > 0)
    }

    @Test func bogusLengthsDoNotAllocate() throws {
        // An unkeyed container claiming 2^60 elements, and a string claiming 2^62 bytes.
        var huge: [UInt8] = [0x01, 0x0D, 0x0B]
        huge.appendVarint(1 << 60)
        #expect(throws: DecodingError.self) { try RecordDecoder().decode([Int].self, from: huge) }
        var longString: [UInt8] = [0x01, 0x07]
        longString.appendVarint(1 << 62)
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(String.self, from: longString) }
        // An overlong varint.
        let overlong: [UInt8] = [0x01, 0x03] + Array(repeating: 0xFF, count: 11) + [0x01]
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(UInt64.self, from: overlong) }
    }

    @Test func foreignBytesAreRejected() {
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(Int.self, from: [UInt8]()) }
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(Int.self, from: Array("{\"id\":1}".utf8)) }
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(Int.self, from: [0x01, 0x04, 0x02, 0x00]) }   // trailing byte
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(Int.self, from: [0x01, 0x7F]) }               // unknown tag
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(String.self, from: [0x01, 0x07, 0x01, 0xFF]) } // bad UTF-8
    }

    @Test func depthIsBounded() throws {
        // Each RecordTestTree level is an enum case: a keyed container holding a keyed container.
        let shallow = RecordTestTree.depth(20)
        #expect(try RecordDecoder().decode(RecordTestTree.self, from: try RecordEncoder().encode(shallow)) == shallow)
        do {
            _ = try RecordEncoder().encode(RecordTestTree.depth(1000))
            Issue.record("expected the encoder to refuse")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("64"))
        }

        // Hand-made bytes: 100 nested unkeyed containers.
        var inner: [UInt8] = [0x0D, 0x01, 0x00]   // empty unkeyed container (body: count 0)
        for _ in 0..<100 {
            var outer: [UInt8] = [0x0D]
            outer.appendVarint(UInt64(inner.count + 1))
            outer.append(0x01)
            outer += inner
            inner = outer
        }
        struct Nested: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                if !container.isAtEnd {
                    _ = try container.decode(Nested.self)
                }
            }
        }
        do {
            _ = try RecordDecoder().decode(Nested.self, from: [0x01] + inner)
            Issue.record("expected the decoder to refuse")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("deeper than 64"))
            #expect(context.codingPath.count == 64)
        }
    }
}
