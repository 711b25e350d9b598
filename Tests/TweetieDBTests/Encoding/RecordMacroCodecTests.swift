import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Every property kind `@Record` handles: native types, arrays, optionals, other Codable types
/// (nested struct, enum with associated values, dictionary), `@Interned`; plus properties it
/// must not store (computed, static).
@Record(collection: "macro_everything")
struct MacroEverything: Equatable {
    var id: Int64
    var int8: Int8
    var uint16: UInt16
    var int32: Int32
    var uint: UInt
    var uint64: UInt64
    var float: Float
    var double: Double
    var flag: Bool
    var date: Date
    var data: Data
    var url: URL
    var uuid: UUID
    var tags: [String]
    var numbers: [Int]
    var dates: [Date]?
    var point: RecordTestPoint
    var shape: RecordTestShape?
    var note: String?
    var counts: [String: Int]
    @Interned var author: String
    @Interned var lists: [String]?
    var observed: Int = 7 {
        didSet { _ = oldValue }
    }
    var computed: Int { Int(int8) + 1 }
    static let ignoredStatic = 0
}

/// The same fields with synthesized `Codable`: the reference bytes.
struct MacroEverythingMirror: Codable, Equatable {
    var id: Int64, int8: Int8, uint16: UInt16, int32: Int32, uint: UInt, uint64: UInt64, float: Float, double: Double
    var flag: Bool, date: Date, data: Data, url: URL, uuid: UUID, tags: [String], numbers: [Int], dates: [Date]?
    var point: RecordTestPoint, shape: RecordTestShape?, note: String?, counts: [String: Int], author: String, lists: [String]?
    var observed: Int
}

/// Version 1 of a record, then version 2 with a field removed and fields added.
struct MacroNoteV1: Codable {
    var id: Int64
    var text: String
    var removed: Int
}

@Record
struct MacroNoteV2: Equatable {
    var id: Int64
    var text: String
    var tags: [String] = ["new"]
    var replyTo: Int64?
    var score: Double = 0.5
}

@Record(collection: "scores")
struct MacroScore: Equatable {
    var id: String
    @Indexed(order: .descending) var points: Int
    @Indexed var player: String
}

@Suite("@Record codec")
struct RecordMacroCodecTests {
    static func sample(_ index: Int, using random: inout SeededRandom) -> (MacroEverything, MacroEverythingMirror) {
        let shapes: [RecordTestShape?] = [nil, .circle(radius: 2.5), .label("ü", RecordTestPoint(x: 1, y: -1)), .empty]
        let value = MacroEverything(
            id: Int64(index), int8: Int8(truncatingIfNeeded: random.int64()), uint16: UInt16(truncatingIfNeeded: random.int64()),
            int32: random.int32(), uint: UInt(bitPattern: Int(random.int64())), uint64: UInt64(bitPattern: random.int64()),
            // Finite: JSON (the Codable path compared below) has no infinities.
            float: Float(index) / 4, double: Double(random.int32()) / 3, flag: index % 2 == 0,
            date: Date(timeIntervalSinceReferenceDate: Double(random.int32()) / 8), data: Data(random.keyString().utf8),
            url: URL(string: "https://example.com/\(index)/a")!, uuid: random.uuid(), tags: index % 3 == 0 ? [] : ["a", random.keyString()],
            numbers: [index, -index], dates: index % 2 == 0 ? nil : [Date(timeIntervalSinceReferenceDate: Double(index))],
            point: RecordTestPoint(x: random.int32(), y: 3), shape: shapes[index % shapes.count],
            note: index % 2 == 0 ? nil : "nöte \(index)", counts: ["k\(index)": index], author: "author \(index % 3)",
            lists: index % 4 == 0 ? nil : ["x/y"], observed: index
        )
        let mirror = MacroEverythingMirror(
            id: value.id, int8: value.int8, uint16: value.uint16, int32: value.int32, uint: value.uint, uint64: value.uint64,
            float: value.float, double: value.double, flag: value.flag, date: value.date, data: value.data, url: value.url,
            uuid: value.uuid, tags: value.tags, numbers: value.numbers, dates: value.dates, point: value.point, shape: value.shape,
            note: value.note, counts: value.counts, author: value.author, lists: value.lists, observed: value.observed
        )
        return (value, mirror)
    }

    @Test func theGeneratedCodecWritesAndReadsTheCodableBytes() throws {
        var random = SeededRandom(seed: 16)
        for index in 0..<300 {
            let (value, mirror) = Self.sample(index, using: &random)
            let fast = try RecordEncoder().encode(value)
            let reference = try RecordEncoder().encode(mirror)
            #expect(fast == reference, "record \(index)")
            #expect(try RecordDecoder().decode(MacroEverything.self, from: reference) == value)
            #expect(try RecordDecoder().decode(MacroEverythingMirror.self, from: fast) == mirror)
            // The generated Codable conformance (JSON export/import) has the same keys and values.
            let json = JSONEncoder()
            json.outputFormatting = .sortedKeys
            #expect(try json.encode(value) == json.encode(mirror))
            #expect(try JSONDecoder().decode(MacroEverything.self, from: json.encode(mirror)) == value)
            #expect(try RecordEncoder().encode(RecordCodableOnly(value)) == reference)
        }
    }

    @Test func schemaEvolutionAddedFieldsTakeTheirDefaultsAndRemovedFieldsAreSkipped() throws {
        let old = try RecordEncoder().encode(MacroNoteV1(id: 4, text: "old", removed: 9))
        let expected = MacroNoteV2(id: 4, text: "old", tags: ["new"], replyTo: nil, score: 0.5)
        #expect(try RecordDecoder().decode(MacroNoteV2.self, from: old) == expected)
        #expect(try old.withUnsafeBytes { try MacroNoteV2._decodeStored($0, sharing: nil) } == expected)
        let json = try JSONEncoder().encode(MacroNoteV1(id: 4, text: "old", removed: 9))
        #expect(try JSONDecoder().decode(MacroNoteV2.self, from: json) == expected)
        // A value set to something else survives the round trip (the default is only for absence).
        let current = MacroNoteV2(id: 5, text: "new", tags: [], replyTo: 3, score: 1)
        #expect(try RecordDecoder().decode(MacroNoteV2.self, from: RecordEncoder().encode(current)) == current)
        // A required field that is missing is an error, as on the Codable path.
        struct NoText: Codable { var id: Int64 }
        let broken = try RecordEncoder().encode(NoText(id: 1))
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(MacroNoteV2.self, from: broken) }
        #expect(throws: DecodingError.self) { try broken.withUnsafeBytes { try MacroNoteV2._decodeStored($0, sharing: nil) } }
    }

    @Test func collectionNameAndIndexedProperties() throws {
        #expect(MacroNoteV2.collectionName == "MacroNoteV2")
        #expect(MacroScore.collectionName == "scores")
        #expect(MacroEverything.collectionName == "macro_everything")
        #expect(MacroScore.indexes.map(\.name) == ["points", "player"])
        #expect(MacroScore.indexes.map(\.orders) == [[.descending], [.ascending]])
        #expect(MacroNoteV2.indexes.isEmpty)
        #expect(MacroScore(id: "a", points: 1, player: "p").primaryKey == "a")

        let store = try Store.temporary(collections: [MacroScore.self, MacroEverything.self])
        defer { store.close() }
        let scores = [MacroScore(id: "a", points: 3, player: "zed"), MacroScore(id: "b", points: 9, player: "amy"),
                      MacroScore(id: "c", points: 5, player: "amy")]
        var random = SeededRandom(seed: 17)
        let everything = (0..<20).map { Self.sample($0, using: &random).0 }
        try store.write { tx in
            _ = try tx.add(contentsOf: scores, update: .all)
            _ = try tx.add(contentsOf: everything, update: .all)
        }
        let (byPoints, amy, stored) = try store.read { tx in
            (try tx.fetch(Query<MacroScore>().sorted(by: MacroScore.byPoints)).map(\.id),
             try tx.fetch(Query<MacroScore>().filter(MacroScore.byPlayer, equals: "amy")).map(\.id).sorted(),
             try tx.fetch(Query<MacroEverything>()))
        }
        #expect(byPoints == ["b", "c", "a"])
        #expect(amy == ["b", "c"])
        #expect(stored == everything.sorted { $0.id < $1.id })
    }
}
