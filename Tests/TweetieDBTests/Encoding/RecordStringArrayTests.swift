import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

/// A record with only a `[String]` field, written and read by the fast path.
private struct Tagged: Codable, RecordCodable, Equatable {
    var tags: [String]
    var note: [String]?

    init(tags: [String], note: [String]?) {
        self.tags = tags
        self.note = note
    }

    func encode(to writer: inout RecordWriter) {
        writer.write(tags, forKey: "tags")
        writer.write(note, forKey: "note")
    }

    init(from reader: inout RecordFieldReader) throws {
        var tags: [String]?, note: [String]?
        while let field = try reader.nextField() {
            switch field.name {
            case "tags": tags = try field.decode([String].self)
            case "note": note = try field.decodeIfPresent([String].self)
            default: break
            }
        }
        self.init(tags: try reader.require(tags, forKey: "tags"), note: note)
    }
}

@Suite("RecordField: native [String] reading")
struct RecordStringArrayTests {
    static let samples: [[String]] = [
        [], [""], ["a"], ["", "", ""], ["ascii", "ünïcödé", "日本語", "🐦 tweet", ""],
        Array(repeating: "x", count: 300), [String(repeating: "long ", count: 5_000)],
    ]

    @Test func readsWhatCodableWrites() throws {
        for tags in Self.samples {
            for note in [nil, tags] as [[String]?] {
                let value = Tagged(tags: tags, note: note)
                let codable = try RecordEncoder().encode(RecordCodableOnly(value))
                #expect(try RecordEncoder().encode(value) == codable)
                #expect(try RecordDecoder().decode(Tagged.self, from: codable) == value)
            }
        }
    }

    /// The bytes of `Tagged(tags: ["ab", "c"], note: nil)` with the `tags` body replaced.
    func record(tagsBody: [UInt8]) -> [UInt8] {
        var entry: [UInt8] = [4] + Array("tags".utf8) + [0x0D]
        entry.appendVarint(UInt64(tagsBody.count))
        entry += tagsBody
        var bytes: [UInt8] = [0x01, 0x0C]
        bytes.appendVarint(UInt64(entry.count))
        return bytes + entry
    }

    @Test func aWellFormedHandBuiltRecordReads() throws {
        let bytes = record(tagsBody: [2, 0x07, 2, 0x61, 0x62, 0x07, 1, 0x63])
        #expect(try RecordDecoder().decode(Tagged.self, from: bytes) == Tagged(tags: ["ab", "c"], note: nil))
    }

    @Test(arguments: [
        ([3, 0x07, 2, 0x61, 0x62, 0x07, 1, 0x63] as [UInt8], "claims more strings than it holds"),
        ([1, 0x07, 2, 0x61, 0x62, 0x07, 1, 0x63], "trailing bytes after the counted strings"),
        ([2, 0x07, 2, 0x61, 0x62, 0x04, 1, 0x63], "an element that is not a string"),
        ([2, 0x07, 2, 0x61, 0x62, 0x07, 5, 0x63], "a string longer than its container"),
        ([1, 0x07, 2, 0xC3, 0x28], "invalid UTF-8"),
        ([200, 1, 0x07, 0], "a count larger than the bytes"),
    ])
    func corruptArraysThrowNamingTheField(body: [UInt8], what: String) throws {
        let bytes = record(tagsBody: body)
        do {
            let value = try RecordDecoder().decode(Tagged.self, from: bytes)
            Issue.record("\(what): decoded \(value) instead of throwing")
        } catch let error as DecodingError {
            #expect("\(error)".contains("tags"), "\(what): \(error)")
        }
    }
}
