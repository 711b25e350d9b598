import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Key encoding")
struct KeyEncodingTests {
    @Test func integersAreBigEndianWithSignBitFlipped() {
        #expect(EncodedKey(Int64(0)).bytes == [0x80, 0, 0, 0, 0, 0, 0, 0])
        #expect(EncodedKey(Int64(-1)).bytes == [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(EncodedKey(Int32(1)).bytes == [0x80, 0, 0, 1])
        #expect(EncodedKey(UInt32(258)).bytes == [0, 0, 1, 2])
        #expect(EncodedKey(UInt8(7)).bytes == [7])
        #expect(EncodedKey(42).bytes == EncodedKey(Int64(42)).bytes)
        #expect(EncodedKey(true).bytes == [1])
    }

    @Test func stringsAreEscapedAndTerminated() {
        #expect(EncodedKey("ab").bytes == [0x61, 0x62, 0x00, 0x01])
        #expect(EncodedKey("a\u{0}b").bytes == [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01])
        #expect(EncodedKey("").bytes == [0x00, 0x01])
        #expect(EncodedKey("ab", descending: true).bytes == [0x9E, 0x9D, 0xFF, 0xFE])
    }

    @Test func stringPrefixesOrderInBothDirections() {
        let pairs: [(String, String)] = [("a", "ab"), ("a", "a\u{0}"), ("", "\u{0}"), ("a\u{0}", "a\u{1}"), ("a\u{0}", "a\u{0}\u{0}")]
        for (short, long) in pairs {
            #expect(EncodedKey(short) < EncodedKey(long), "\(short.debugDescription) < \(long.debugDescription)")
            #expect(EncodedKey(long, descending: true) < EncodedKey(short, descending: true))
            // Followed by another component that would invert the order if the string leaked into it.
            let shortThenMax = EncodedKey { $0.append(short, descending: true); $0.append(Int64.max) }
            let longThenMin = EncodedKey { $0.append(long, descending: true); $0.append(Int64.min) }
            #expect(longThenMin < shortThenMax)
        }
    }

    @Test func doubleOrderIncludingSpecialValues() {
        let ordered: [Double] = [-.infinity, -.greatestFiniteMagnitude, -1, -.leastNonzeroMagnitude, -0.0, 0.0,
                                 .leastNonzeroMagnitude, 1, .greatestFiniteMagnitude, .infinity, .nan]
        for (lower, upper) in zip(ordered, ordered.dropFirst()) {
            #expect(EncodedKey(lower) < EncodedKey(upper), "\(lower) < \(upper)")
        }
        #expect(EncodedKey(-Double.nan) < EncodedKey(-Double.infinity))
        for value in ordered + [-Double.nan, Double.signalingNaN] {
            var decoder = KeyDecoder(EncodedKey(value).bytes)
            let decoded = try? decoder.decode(Double.self)
            #expect(decoded?.bitPattern == value.bitPattern)
        }
    }

    @Test func datesRoundTripBitExact() throws {
        let dates = [Date(timeIntervalSinceReferenceDate: 0.1), Date(timeIntervalSinceReferenceDate: -1e9 + 0.000001),
                     Date.distantFuture, Date.distantPast, Date(timeIntervalSinceReferenceDate: -0.0)]
        for date in dates {
            var decoder = KeyDecoder(EncodedKey(date, descending: true).bytes)
            let decoded = try decoder.decode(Date.self, descending: true)
            #expect(decoded.timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    @Test func uuidRoundTripsAndOrdersByBytes() throws {
        let low = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")!
        let high = UUID(uuidString: "01000000-0000-0000-0000-000000000000")!
        #expect(EncodedKey(low) < EncodedKey(high))
        var decoder = KeyDecoder(EncodedKey(high).bytes)
        #expect(try decoder.decode(UUID.self) == high)
        #expect(decoder.isAtEnd)
    }

    @Test func malformedKeysThrowWithOffsets() {
        var truncated = KeyDecoder([0x80, 0x00])
        #expect(throws: KeyDecodingError.self) { try truncated.decode(Int64.self) }

        var badBool = KeyDecoder([0x07])
        do {
            _ = try badBool.decode(Bool.self)
            Issue.record("expected an error")
        } catch let error as KeyDecodingError {
            #expect(error.offset == 0)
            #expect(error.description.contains("Bool"))
        } catch {
            Issue.record("unexpected error \(error)")
        }

        var unterminated = KeyDecoder([0x61, 0x62])
        #expect(throws: KeyDecodingError.self) { try unterminated.decode(String.self) }
        var badEscape = KeyDecoder([0x61, 0x00, 0x05])
        #expect(throws: KeyDecodingError.self) { try badEscape.decode(String.self) }
        var badUTF8 = KeyDecoder([0xC3, 0x00, 0x01])
        #expect(throws: KeyDecodingError.self) { try badUTF8.decode(String.self) }
    }

    @Test func decoderReadsFromRawBuffer() throws {
        let key = EncodedKey { $0.append("x"); $0.append(UInt64(9)) }
        let (name, number) = try key.bytes.withUnsafeBytes { raw in
            var decoder = KeyDecoder(bytes: raw)
            return (try decoder.decode(String.self), try decoder.decode(UInt64.self))
        }
        #expect(name == "x")
        #expect(number == 9)
    }

    @Test func encodedKeyComparisonIsMemcmp() {
        #expect(EncodedKey(bytes: [1]) < EncodedKey(bytes: [1, 0]))
        #expect(EncodedKey(bytes: [1, 0xFF]) < EncodedKey(bytes: [2]))
        #expect(EncodedKey.compare([1, 2], [1, 2]) == 0)
        #expect(EncodedKey.compare([], [0]) < 0)
        #expect(EncodedKey(bytes: [1, 2, 3]).hasPrefix(EncodedKey(bytes: [1, 2])))
        #expect(!EncodedKey(bytes: [1]).hasPrefix(EncodedKey(bytes: [1, 2])))
    }
}
