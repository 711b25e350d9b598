import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Record codec schema evolution and determinism")
struct RecordCodecEvolutionTests {
    struct UserV1: Codable, Equatable {
        var id: Int64
        var name: String
        var legacyScore: Int
    }

    struct UserV2: Codable, Equatable {
        var id: Int64
        var name: String
        var bio: String?
        var followers: [Int64]?
    }

    @Test func addedOptionalFieldsDecodeAsNil() throws {
        let v1 = UserV1(id: 1, name: "ann", legacyScore: 9)
        let v2 = try RecordDecoder().decode(UserV2.self, from: try RecordEncoder().encode(v1))
        #expect(v2 == UserV2(id: 1, name: "ann", bio: nil, followers: nil))
    }

    @Test func removedFieldsAreIgnored() throws {
        struct Trimmed: Codable, Equatable { var name: String }
        let v2 = UserV2(id: 2, name: "bob", bio: "hi", followers: [1, 2, 3])
        let trimmed = try RecordDecoder().decode(Trimmed.self, from: try RecordEncoder().encode(v2))
        #expect(trimmed == Trimmed(name: "bob"))
    }

    @Test func reorderedFieldsStillDecode() throws {
        struct Reordered: Codable, Equatable { var legacyScore: Int; var name: String; var id: Int64 }
        let decoded = try RecordDecoder().decode(Reordered.self, from: try RecordEncoder().encode(UserV1(id: 3, name: "c", legacyScore: 4)))
        #expect(decoded == Reordered(legacyScore: 4, name: "c", id: 3))
    }

    @Test func dictionariesAndSetsEncodeCanonically() throws {
        // Same contents, built in different insertion orders and with different capacities,
        // so iteration orders differ; the bytes must not.
        var forward: [String: Int] = [:]
        var backward: [String: Int] = Dictionary(minimumCapacity: 512)
        let keys = (0..<200).map { "key\($0)" }
        for (index, key) in keys.enumerated() { forward[key] = index }
        for (index, key) in keys.enumerated().reversed() { backward[key] = index }
        #expect(Array(forward.keys) != Array(backward.keys), "test setup should produce different iteration orders")
        #expect(try RecordEncoder().encode(forward) == RecordEncoder().encode(backward))

        var pointsA: [RecordTestPoint: String] = [:]
        var pointsB: [RecordTestPoint: String] = Dictionary(minimumCapacity: 300)
        for index in 0..<100 { pointsA[RecordTestPoint(x: Int32(index), y: -Int32(index))] = "\(index)" }
        for index in (0..<100).reversed() { pointsB[RecordTestPoint(x: Int32(index), y: -Int32(index))] = "\(index)" }
        #expect(try RecordEncoder().encode(pointsA) == RecordEncoder().encode(pointsB))

        var setA = Set<Int>()
        var setB = Set<Int>(minimumCapacity: 400)
        for index in 0..<150 { setA.insert(index * 7) }
        for index in (0..<150).reversed() { setB.insert(index * 7) }
        #expect(try RecordEncoder().encode(setA) == RecordEncoder().encode(setB))
        #expect(try RecordDecoder().decode(Set<Int>.self, from: try RecordEncoder().encode(setA)) == setA)
        #expect(try RecordDecoder().decode([RecordTestPoint: String].self, from: try RecordEncoder().encode(pointsA)) == pointsA)
    }

    @Test func structFieldsKeepEncodeOrder() throws {
        struct Ordered: Codable { var zebra: Int; var apple: Int }
        let bytes = try RecordEncoder().encode(Ordered(zebra: 1, apple: 2))
        let zebra = bytes.firstIndex(of: UInt8(ascii: "z"))!
        let apple = bytes.firstIndex(of: UInt8(ascii: "a"))!
        #expect(zebra < apple)
    }

    @Test func sameValueSameBytes() throws {
        let value = RecordTestEverything.sample()
        #expect(try RecordEncoder().encode(value) == RecordEncoder().encode(value))
    }
}
