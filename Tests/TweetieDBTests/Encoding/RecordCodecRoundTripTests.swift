import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Record codec round trips")
struct RecordCodecRoundTripTests {
    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let bytes = try RecordEncoder().encode(value)
        return try RecordDecoder().decode(T.self, from: bytes)
    }

    @Test func tweet() throws {
        for index in 0..<50 {
            let tweet = RecordTestTweet.sample(index)
            #expect(try roundTrip(tweet) == tweet)
        }
    }

    @Test func everything() throws {
        let value = RecordTestEverything.sample()
        let decoded = try roundTrip(value)
        #expect(decoded == value)
        #expect(decoded.double.sign == .minus)
        #expect(decoded.date.timeIntervalSinceReferenceDate.bitPattern == value.date.timeIntervalSinceReferenceDate.bitPattern)
    }

    @Test func topLevelValues() throws {
        #expect(try roundTrip(42) == 42)
        #expect(try roundTrip("text") == "text")
        #expect(try roundTrip([1.5, -2.5]) == [1.5, -2.5])
        #expect(try roundTrip(Optional<Int>.none) == nil)
        #expect(try roundTrip(Optional<Int>.some(3)) == 3)
        #expect(try roundTrip(Date.distantPast) == Date.distantPast)
        #expect(try roundTrip(Data()) == Data())
        #expect(try roundTrip([String: [Int]]()) == [:])
        #expect(try roundTrip(RecordTestShape.empty) == .empty)
    }

    @Test func doubleBitsAreExact() throws {
        for value in [Double.nan, -Double.nan, .signalingNaN, .leastNonzeroMagnitude, -0.0, .infinity] {
            let decoded = try RecordDecoder().decode(Double.self, from: try RecordEncoder().encode(value))
            #expect(decoded.bitPattern == value.bitPattern)
        }
    }

    @Test func classHierarchyWithSuperEncoder() throws {
        let dog = RecordTestDog(name: "Rex", goodBoy: true)
        let decoded = try RecordDecoder().decode(RecordTestDog.self, from: try RecordEncoder().encode(dog))
        #expect(decoded.name == "Rex")
        #expect(decoded.goodBoy)
    }

    @Test func nestedContainersAndOutOfOrderReads() throws {
        let value = RecordTestManual(title: "t", tags: ["a", "b"], origin: RecordTestPoint(x: 5, y: -6))
        #expect(try roundTrip(value) == value)
    }

    @Test func integerWidthsConvertWhenTheValueFits() throws {
        let bytes = try RecordEncoder().encode(Int(200))
        #expect(try RecordDecoder().decode(Int64.self, from: bytes) == 200)
        #expect(try RecordDecoder().decode(UInt8.self, from: bytes) == 200)
        #expect(try RecordDecoder().decode(UInt64.self, from: try RecordEncoder().encode(UInt8(7))) == 7)
        #expect(try RecordDecoder().decode(Double.self, from: try RecordEncoder().encode(Float(1.5))) == 1.5)

        do {
            _ = try RecordDecoder().decode(Int8.self, from: bytes)
            Issue.record("200 must not fit in Int8")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("does not fit in Int8"))
        }
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(UInt.self, from: try RecordEncoder().encode(-1)) }
    }

    @Test func typeMismatchIsReportedWithPathAndOffset() throws {
        struct Written: Codable { var id: String }
        struct Read: Codable { var id: Int }
        let bytes = try RecordEncoder().encode(Written(id: "x"))
        do {
            _ = try RecordDecoder().decode(Read.self, from: bytes)
            Issue.record("expected a type mismatch")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
            #expect(context.codingPath.map(\.stringValue) == ["id"])
            #expect(context.debugDescription.contains("byte offset"))
            #expect(context.debugDescription.contains("string"))
        }
    }

    @Test func missingRequiredKeyAndNilValue() throws {
        struct Empty: Codable {}
        struct Needs: Codable { var name: String }
        struct MaybeName: Codable {
            var name: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)   // writes an explicit nil
            }
        }
        do {
            _ = try RecordDecoder().decode(Needs.self, from: try RecordEncoder().encode(Empty()))
            Issue.record("expected keyNotFound")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "name")
        }
        do {
            _ = try RecordDecoder().decode(Needs.self, from: try RecordEncoder().encode(MaybeName(name: nil)))
            Issue.record("expected valueNotFound")
        } catch DecodingError.valueNotFound(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(context.codingPath.map(\.stringValue) == ["name"])
        }
        #expect(try RecordDecoder().decode(MaybeName.self, from: try RecordEncoder().encode(MaybeName(name: nil))).name == nil)
    }

    @Test func decodesFromRawBufferAndData() throws {
        let tweet = RecordTestTweet.sample(3)
        let bytes = try RecordEncoder().encode(tweet)
        let fromRaw = try bytes.withUnsafeBytes { try RecordDecoder().decode(RecordTestTweet.self, from: $0) }
        #expect(fromRaw == tweet)
        #expect(try RecordDecoder().decode(RecordTestTweet.self, from: Data(bytes)) == tweet)
    }

    @Test func formatBytesOfASmallValue() throws {
        struct Small: Codable { var a: Int; var b: Bool }
        let bytes = try RecordEncoder().encode(Small(a: -2, b: true))
        // version, keyed tag, body length 7, "a" -> signed zigzag(-2)=3, "b" -> true
        #expect(bytes == [0x01, 0x0C, 0x07, 0x01, 0x61, 0x04, 0x03, 0x01, 0x62, 0x02])
    }
}
