import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A record whose repeated fields are read with `decodeShared`, and one unique field.
struct SharedNote: Record, RecordCodable, Codable, Hashable, Identifiable {
    static let collectionName = "sharedNotes"
    static let byURL = Index<SharedNote>.on("url", \.url)
    static let indexes = [byURL.index]
    var id: Int64
    var url: String
    var body: String
    var lang: String?
    var tags: [String]

    func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(url, forKey: "url")
        writer.write(body, forKey: "body")
        writer.write(lang, forKey: "lang")
        writer.write(tags, forKey: "tags")
    }

    init(id: Int64, url: String, body: String, lang: String?, tags: [String]) {
        self.id = id
        self.url = url
        self.body = body
        self.lang = lang
        self.tags = tags
    }

    init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, url: String?, body: String?, lang: String?, tags: [String]?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "url": url = try field.decodeShared(String.self)
            case "body": body = try field.decode(String.self)
            case "lang": lang = try field.decodeSharedIfPresent(String.self)
            case "tags": tags = try field.decodeSharedIfPresent([String].self)
            default: break
            }
        }
        self.init(id: try reader.require(id, forKey: "id"), url: try reader.require(url, forKey: "url"),
                  body: try reader.require(body, forKey: "body"), lang: lang, tags: tags ?? [])
    }
}

@Suite("Shared strings: equal values decoded in one scan share storage, and never change a value")
struct SharedStringTableTests {
    /// The address of a string's UTF-8 storage (meaningful for strings of 16 bytes or more, which
    /// live on the heap; a small string is copied to a temporary for the call).
    func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    func notes(count: Int, distinctURLs: Int, seed: UInt64) -> [SharedNote] {
        var random = SeededRandom(seed: seed)
        let tagSets: [[String]] = [[], ["icanzilb/RxSwift"], ["icanzilb/RxSwift", "swift/lang"], ["a/b"], ["swift/lang", "icanzilb/RxSwift"]]
        return (0..<count).map { index in
            let author = Int.random(in: 0...(distinctURLs - 1), using: &random)
            return SharedNote(id: Int64(index), url: "https://pbs.twimg.com/profile_images/\(author)/avatar_normal.jpg",
                              body: "note \(index) " + String(repeating: "x", count: Int.random(in: 0...40, using: &random)),
                              lang: Int.random(in: 0...2, using: &random) == 0 ? nil : (Bool.random(using: &random) ? "en" : "a language code beyond sixteen bytes"),
                              tags: tagSets[Int.random(in: 0...(tagSets.count - 1), using: &random)])
        }
    }

    @Test func sharedDecodingGivesTheSameValuesAsPlainDecoding() throws {
        // More distinct URLs than slots, so slots are taken over again and again.
        let notes = notes(count: 6_000, distinctURLs: 3_000, seed: 41)
        let table = SharedStringTable()
        for note in notes {
            let bytes = try RecordEncoder().encode(record: note)
            let shared = try bytes.withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: table) }
            #expect(shared == note)
            #expect(try bytes.withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0) } == note)
        }
    }

    @Test func equalValuesShareOneStorageWithinATable() throws {
        let url = "https://example.com/a-url-long-enough-to-live-on-the-heap.png"
        let first = SharedNote(id: 1, url: url, body: "one", lang: nil, tags: ["owner/a-list-name-on-the-heap"])
        let second = SharedNote(id: 2, url: url, body: "two", lang: nil, tags: ["owner/a-list-name-on-the-heap"])
        let table = SharedStringTable()
        let decoded = try [first, second].map { note in
            try RecordEncoder().encode(record: note).withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: table) }
        }
        #expect(decoded == [first, second])
        #expect(storage(decoded[0].url) != nil)
        #expect(storage(decoded[0].url) == storage(decoded[1].url))
        #expect(storage(decoded[0].tags[0]) == storage(decoded[1].tags[0]))
        #expect(decoded[0].tags.withUnsafeBufferPointer { $0.baseAddress } == decoded[1].tags.withUnsafeBufferPointer { $0.baseAddress })
        // Without a table (or with separate tables) each record gets its own copy.
        let apart = try [first, second].map { note in
            try RecordEncoder().encode(record: note).withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: SharedStringTable()) }
        }
        #expect(storage(apart[0].url) != storage(apart[1].url))
    }

    @Test func invalidUTF8IsRejectedEvenNextToAnEqualLengthValidValue() throws {
        let valid = SharedNote(id: 1, url: "https://example.com/abcdefghijklmnop", body: "b", lang: nil, tags: [])
        var bytes = try RecordEncoder().encode(record: valid)
        let table = SharedStringTable()
        _ = try bytes.withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: table) }
        // Same length, one byte made invalid UTF-8: a different value, so it is decoded and checked.
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "p")))
        bytes[at] = 0xFF
        #expect(throws: DecodingError.self) {
            _ = try bytes.withUnsafeBytes { try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: table) }
        }
    }

    @Test func listsThatDifferInOneByteAreNotConfused() throws {
        let table = SharedStringTable()
        let lists = [["owner/list-a"], ["owner/list-b"], ["owner/list-a", "owner/list-b"], ["owner/list-b", "owner/list-a"], []]
        for round in 0..<3 {
            for (position, tags) in lists.enumerated() {
                let note = SharedNote(id: Int64(round * 10 + position), url: "u", body: "", lang: "en", tags: tags)
                let decoded = try RecordEncoder().encode(record: note).withUnsafeBytes {
                    try RecordDecoder().decode(record: SharedNote.self, from: $0, sharing: table)
                }
                #expect(decoded.tags == tags)
            }
        }
    }

    @Test func scansThroughAnIndexReturnExactlyTheStoredRecords() throws {
        let store = try Store.temporary(collections: [SharedNote.self])
        defer { store.close() }
        let notes = notes(count: 3_000, distinctURLs: 40, seed: 42)
        try store.write { tx in try tx.add(contentsOf: notes) }
        let byURL = notes.sorted { ($0.url, $0.id) < ($1.url, $1.id) }
        try store.read { tx throws in
            #expect(try tx.fetch(Query<SharedNote>().sorted(by: SharedNote.byURL)) == byURL)
            #expect(try tx.fetch(Query<SharedNote>().sorted(by: SharedNote.byURL, .descending)) == byURL.reversed())
            #expect(Array(try tx.records(Query<SharedNote>().sorted(by: SharedNote.byURL))) == byURL)
            let one = byURL[1_234].url
            #expect(try tx.fetch(Query<SharedNote>().filter(SharedNote.byURL, equals: one)) == byURL.filter { $0.url == one })
        }
    }
}
