import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A `@Record` type whose every property has a direct JSON text, with keys whose byte order is
/// not their declaration order (`Zeta` before `a10` before `a9` before `alpha`), optionals,
/// defaults and a keyword name.
@Record(collection: "macro_json")
struct MacroJSONNote: Equatable {
    var id: Int64
    var alpha: Bool
    var Zeta: String
    var a9: UInt64
    var a10: Int32
    var score: Double
    var updated: Date
    var tags: [String]
    var count: Int
    var small: Int8
    var note: String?
    var replyTo: Int64?
    var due: Date?
    var ratio: Double?
    var labels: [String] = ["new"]
    var rank: Int = 3
    var `default`: Bool?
}

/// A `Codable` value without a direct JSON text.
struct MacroJSONPoint: Codable, Equatable {
    var x: Int
}

/// The same fields with synthesized `Codable`: the reference text.
struct MacroJSONNoteMirror: Codable, Equatable {
    var id: Int64, alpha: Bool, Zeta: String, a9: UInt64, a10: Int32, score: Double, updated: Date, tags: [String]
    var count: Int, small: Int8, note: String?, replyTo: Int64?, due: Date?, ratio: Double?, labels: [String], rank: Int
    var `default`: Bool?
}

/// `@Record` writes and reads the JSON of types like `MacroJSONNote` member by member
/// (`JSONObjectWritable`, `JSONObjectReadable`), as `Tweet` does by hand: the text must be
/// `RecordJSON.encoder()`'s byte for byte, every object read must be `RecordJSON.decoder()`'s
/// record, and anything else must be left to the `Codable` members.
@Suite("@Record direct JSON")
struct RecordMacroJSONTests {
    static func notes(count: Int, seed: UInt64) -> [MacroJSONNote] {
        var random = SeededRandom(seed: seed)
        let doubles: [Double] = [0, -0.0, 1, 0.1, -2.5, 1e-300, 1.5e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123_456_789.125, 1.0 / 3]
        let texts = ["", "plain", "a\"b\\c/d", "\u{0}\u{1F}\n\t\u{7F}", "ünïcødé 🎉 \u{2028} </script>", String(repeating: "x", count: 300)]
        return (0..<count).map { index -> MacroJSONNote in
            let id: Int64 = index % 7 == 0 ? Int64.min + Int64(index) : Int64(index)
            let a9: UInt64 = index % 5 == 0 ? UInt64.max - UInt64(index) : UInt64(bitPattern: random.int64()) >> 1
            let a10: Int32 = index % 3 == 0 ? Int32.min : random.int32()
            let score: Double = index < doubles.count ? doubles[index] : Double(random.int32()) / 7
            let seconds: Double = index % 11 == 0 ? -62_135_596_800 + Double(index) * 0.001 : 1_700_000_000 + Double(index) * 0.125
            let tags: [String] = index % 4 == 0 ? [] : Array(texts.prefix(index % texts.count))
            let count: Int = index % 9 == 0 ? Int.max : -index
            let note: String? = index % 3 == 1 ? nil : texts[(index + 1) % texts.count]
            let replyTo: Int64? = index % 2 == 1 ? nil : Int64(index) * 1_000_003
            let due: Date? = index % 4 == 1 ? nil : Date(timeIntervalSince1970: Double(index) * 86_400.5)
            let ratio: Double? = index % 5 == 2 ? nil : Double(index) / 8
            let labels: [String] = index % 6 == 0 ? [] : ["l\(index)"]
            let flag: Bool? = index % 3 == 0 ? nil : index % 3 == 1
            return MacroJSONNote(id: id, alpha: index % 2 == 0, Zeta: texts[index % texts.count], a9: a9, a10: a10, score: score,
                                 updated: Date(timeIntervalSince1970: seconds), tags: tags, count: count,
                                 small: Int8(truncatingIfNeeded: index * 37), note: note, replyTo: replyTo, due: due, ratio: ratio,
                                 labels: labels, rank: index, default: flag)
        }
    }

    static func mirror(_ n: MacroJSONNote) -> MacroJSONNoteMirror {
        MacroJSONNoteMirror(id: n.id, alpha: n.alpha, Zeta: n.Zeta, a9: n.a9, a10: n.a10, score: n.score, updated: n.updated, tags: n.tags,
                            count: n.count, small: n.small, note: n.note, replyTo: n.replyTo, due: n.due, ratio: n.ratio, labels: n.labels,
                            rank: n.rank, default: n.default)
    }

    /// The object writer's own text for `value`, with no fallback; `nil` when it refused.
    static func written<T: JSONObjectWritable>(_ value: T) -> [UInt8]? {
        var object = JSONObjectWriter()
        value.writeJSONObject(to: &object)
        object.finish()
        return object.failed ? nil : object.bytes
    }

    /// What the object reader makes of `json` (nil: it left the object to `init(from:)`).
    static func read<T: JSONObjectReadable>(_ type: T.Type, _ json: [UInt8]) throws -> T? {
        try json.withUnsafeBytes { bytes in
            let tape = try JSONTape.parse(bytes, rejectingAmbiguousKeys: true)
            return tape.entries.withUnsafeBufferPointer { entries in
                var reader = JSONObjectReader(view: JSONTapeView(entries: entries, bytes: tape.bytes))
                let value = T(jsonObject: &reader)
                return reader.failed ? nil : value
            }
        }
    }

    /// The import's answer for `json` (the record, or the error's description) next to `JSONDecoder`'s.
    static func importAndDecoder<T: JSONObjectReadable & Equatable>(_ type: T.Type, _ json: [UInt8]) -> (imported: String, decoded: String) {
        func describe(_ body: () throws -> T) -> String {
            do { return "value \(try body())" } catch { return "error \(error)" }
        }
        let imported = describe {
            var reader = RecordJSONReader()
            return try json.withUnsafeBytes { bytes in
                try reader.decodeObject(T.self, from: bytes, parsed: try JSONTape.parse(bytes, rejectingAmbiguousKeys: true))
            }
        }
        return (imported, describe { try RecordJSON.decoder().decode(T.self, from: Data(json)) })
    }

    /// Whether `type` writes and reads its own JSON objects (checked at run time, as the store does).
    static func isDirect(_ type: Any.Type) -> (writes: Bool, reads: Bool) {
        (type is any JSONObjectWritable.Type, type is any JSONObjectReadable.Type)
    }

    @Test func theMacroAddsTheDirectMembersOnlyWhereEveryTypeHasADirectText() {
        #expect(Self.isDirect(MacroJSONNote.self) == (true, true))
        // UUID, URL, Data, Float, nested Codable values: the Codable path, not tried first.
        #expect(Self.isDirect(MacroEverything.self) == (false, false))
        // Only Int64, String, [String] and Double, some with defaults: direct.
        #expect(Self.isDirect(MacroNoteV2.self) == (true, true))
    }

    @Test func writtenObjectsMatchJSONEncoderByteForByte() throws {
        let encoder = RecordJSON.encoder()
        for (index, note) in Self.notes(count: 300, seed: 5).enumerated() {
            let reference = Array(try encoder.encode(Self.mirror(note)))
            #expect(Array(try encoder.encode(note)) == reference, "note \(index): the Codable members")
            let direct = Self.written(note)
            #expect(direct != nil, "note \(index): the object writer refused it")
            #expect(direct == reference, "note \(index): \(String(decoding: direct ?? [], as: UTF8.self)) vs \(String(decoding: reference, as: UTF8.self))")
        }
    }

    /// A value the writer has no text for (a non-finite double, a date beyond ISO 8601) fails the
    /// object, and the export's writer then fails as `JSONEncoder` does.
    @Test func valuesWithoutATextFallBackToJSONEncoder() throws {
        var note = Self.notes(count: 1, seed: 1)[0]
        note.score = .nan
        #expect(Self.written(note) == nil)
        var writer = RecordJSONWriter()
        var bytes: [UInt8] = []
        #expect(throws: EncodingError.self) { try writer.appendObject(note, to: &bytes) }
        #expect(throws: EncodingError.self) { try RecordJSON.encoder().encode(note) }
        note.score = 1
        note.ratio = .infinity
        #expect(Self.written(note) == nil)
        note.ratio = nil
        note.due = Date(timeIntervalSince1970: 1e300)
        #expect(Self.written(note) == nil)
    }

    /// The generic overloads, which generated code lands on when a name the macro recognizes is
    /// another type in the user's module (a `struct Date` of their own): a value of a type without
    /// a direct text fails the object, so the record goes through `Codable`; absent or `null`
    /// optionals are still `nil`.
    @Test func valuesOfOtherTypesFailTheObject() throws {
        var object = JSONObjectWriter()
        object.write(Int64(1), forKey: "id")
        object.writeIfPresent(MacroJSONPoint?.none, forKey: "none")
        #expect(!object.failed)
        object.write(MacroJSONPoint(x: 1), forKey: "point")
        #expect(object.failed)
        var optional = JSONObjectWriter()
        optional.writeIfPresent(MacroJSONPoint?.some(MacroJSONPoint(x: 2)), forKey: "point")
        #expect(optional.failed)

        let json = Array(#"{"absent":null,"point":{"x":1}}"#.utf8)
        try json.withUnsafeBytes { bytes in
            let tape = try JSONTape.parse(bytes, rejectingAmbiguousKeys: true)
            tape.entries.withUnsafeBufferPointer { entries in
                var reader = JSONObjectReader(view: JSONTapeView(entries: entries, bytes: tape.bytes))
                let missing: MacroJSONPoint? = reader.value("missing")
                let absent: MacroJSONPoint? = reader.valueIfPresent("absent")
                #expect(missing == nil && absent == nil && !reader.failed)
                let point: MacroJSONPoint? = reader.value("point")
                #expect(point == nil && reader.failed)
            }
        }
    }

    @Test func exportedObjectsReadAsJSONDecoderReadsThem() throws {
        let encoder = RecordJSON.encoder()
        for (index, note) in Self.notes(count: 300, seed: 9).enumerated() {
            let json = Array(try encoder.encode(note))
            let fast = try Self.read(MacroJSONNote.self, json)
            #expect(fast != nil, "note \(index) was left to init(from:)")
            #expect(fast == (try RecordJSON.decoder().decode(MacroJSONNote.self, from: Data(json))), "note \(index)")
        }
    }

    /// Hand-written objects: what the reader takes (absent and null optionals and defaults,
    /// extra members) and what it leaves to `init(from:)` (a missing required member, a wrong
    /// type, a number JSONDecoder might read otherwise); either way the import answers as
    /// `JSONDecoder` does.
    @Test func handWrittenObjectsAreReadOrLeftAndAnsweredAsJSONDecoderAnswers() throws {
        let base = #""Zeta":"z","a10":-3,"a9":18446744073709551615,"alpha":true,"count":2,"id":1,"score":0.5,"small":-128,"tags":["t"],"updated":"2026-11-28T04:30:00.000Z""#
        let cases: [(json: String, readDirectly: Bool)] = [
            ("{\(base)}", true),                                                   // optionals and defaults absent
            ("{\(base),\"note\":null,\"due\":null,\"ratio\":null,\"default\":null}", true),
            ("{\(base),\"labels\":null,\"rank\":null}", true),                    // null defaults: the defaults
            ("{\(base),\"labels\":[],\"rank\":9,\"due\":\"2026-01-01T00:00:00Z\"}", true),
            ("{\(base),\"unknown\":{\"x\":[1,2]}}", true),                        // extra members are ignored
            ("{\(base),\"score2\":1}".replacingOccurrences(of: "\"score\":0.5,", with: ""), false),  // a required member missing
            ("{\(base)}".replacingOccurrences(of: "\"count\":2", with: "\"count\":\"2\""), false),   // a wrong type
            ("{\(base)}".replacingOccurrences(of: "\"count\":2", with: "\"count\":2.0"), false),     // not plain digits
            ("{\(base)}".replacingOccurrences(of: "\"a10\":-3", with: "\"a10\":4294967296"), false),  // out of Int32's range
            ("{\(base)}".replacingOccurrences(of: "\"tags\":[\"t\"]", with: "\"tags\":null"), false), // null for a required member
            ("{\(base),\"note\":7}", false),
            ("{\(base)}".replacingOccurrences(of: "\"score\":0.5", with: "\"score\":1e-400"), false),
        ]
        for (json, readDirectly) in cases {
            let bytes = Array(json.utf8)
            let fast = try Self.read(MacroJSONNote.self, bytes)
            #expect((fast != nil) == readDirectly, "\(json)")
            if let fast {
                #expect(fast == (try RecordJSON.decoder().decode(MacroJSONNote.self, from: Data(bytes))), "\(json)")
            }
            let answers = Self.importAndDecoder(MacroJSONNote.self, bytes)
            #expect(answers.imported == answers.decoded, "\(json)")
        }
    }

    /// Through the store: an export of `@Record` records is the encoder's text, line for line,
    /// and importing it gives the same records.
    @Test func exportAndImportOfARecordTypeRoundTrip() throws {
        let dir = TemporaryDirectory("macro-json")
        defer { dir.remove() }
        let notes = Self.notes(count: 500, seed: 3).enumerated().map { offset, note in
            var note = note
            note.id = Int64(offset)   // distinct keys
            return note
        }
        let source = try Store.open(at: dir.path + "/a", collections: [MacroJSONNote.self])
        defer { source.close() }
        try source.write { try $0.add(contentsOf: notes, update: .all) }
        var exported: [UInt8] = []
        try source.exportNDJSON { exported.append(contentsOf: $0) }
        let file = dir.path + "/notes.ndjson"
        try Data(exported).write(to: URL(fileURLWithPath: file))
        let lines = String(decoding: exported, as: UTF8.self).split(separator: "\n").dropFirst()
        let encoder = RecordJSON.encoder()
        #expect(lines.count == notes.count)
        for (line, note) in zip(lines, notes.sorted { $0.id < $1.id }) {
            let record = String(decoding: try encoder.encode(note), as: UTF8.self)
            #expect(line == #"{"collection":"macro_json","record":"# + record + "}")
        }
        let target = try Store.open(at: dir.path + "/b", collections: [MacroJSONNote.self])
        defer { target.close() }
        let fd = open(file, O_RDONLY)
        defer { close(fd) }
        let summary = try target.importNDJSON(from: fd, mode: .merge)
        #expect(summary.records == notes.count)
        let back = try target.read { try $0.fetch(Query<MacroJSONNote>()) }
        #expect(back == notes.sorted { $0.id < $1.id })
    }
}
