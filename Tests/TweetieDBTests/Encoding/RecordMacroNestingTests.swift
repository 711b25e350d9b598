import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Record types namespaced in an enum, with properties of the enum's own types: `@Record`'s
/// extension is declared at file scope, where `Location` alone names nothing, so it must name
/// the types through the aliases its member role declares inside each struct.
enum MacroFeed {
    struct Location: Codable, Equatable, Sendable {
        var lat: Double
        var lon: Double
    }

    enum Kind: String, Codable, Sendable {
        case post, reply
    }

    /// Private to the namespace: the aliases must not be more visible than it.
    private struct Secret: Codable, Equatable, Sendable {
        var code: Int
    }

    @Record(collection: "macro_feed_drafts")
    struct Draft: Equatable {
        var id: Int64
        private var secret: Secret?

        init(id: Int64, code: Int?) {
            self.id = id
            self.secret = code.map { Secret(code: $0) }
        }

        var code: Int? { secret?.code }
    }

    @Record(collection: "macro_feed_posts")
    struct Post: Equatable {
        var id: Int64
        var text: String
        var location: Location?
        var kind: Kind = .post
        @Indexed(order: .descending) var created: Date
    }

    /// Only types with a direct JSON text: the direct JSON members, through the aliases too.
    @Record(collection: "macro_feed_marks")
    struct Mark: Equatable {
        var id: Int64
        var label: String
        var at: Date?
    }
}

/// A namespace whose own `Date` shadows Foundation's: `@Record` recognizes the spelling `Date`
/// and generates the direct JSON members, whose aliases resolve to this `Date`; the generic
/// overloads then send the record through `Codable`, never through Foundation dates.
enum MacroCalendar {
    struct Date: Codable, Equatable, Sendable {
        var day: Int
    }

    @Record(collection: "macro_calendar_events")
    struct Event: Equatable {
        var id: Int64
        var when: Date
        var until: Date?
    }
}

@Suite("@Record on nested types")
struct RecordMacroNestingTests {
    static let posts: [MacroFeed.Post] = (0..<200).map { index -> MacroFeed.Post in
        let location: MacroFeed.Location? = index % 3 == 0 ? nil : MacroFeed.Location(lat: Double(index) / 7, lon: -Double(index))
        let kind: MacroFeed.Kind = index % 2 == 0 ? .post : .reply
        let created = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
        return MacroFeed.Post(id: Int64(index), text: "post \(index)", location: location, kind: kind, created: created)
    }

    @Test func nestedRecordsWithTheirNamespacesTypesAreStoredQueriedAndTransferred() throws {
        let dir = TemporaryDirectory("macro-nesting")
        defer { dir.remove() }
        let store = try Store.open(at: dir.path + "/a", collections: [MacroFeed.Post.self, MacroFeed.Mark.self])
        defer { store.close() }
        let marks = [MacroFeed.Mark(id: 1, label: "a", at: nil), MacroFeed.Mark(id: 2, label: "b", at: Date(timeIntervalSince1970: 5))]
        try store.write { tx in
            try tx.add(contentsOf: Self.posts, update: .all)
            try tx.add(contentsOf: marks, update: .all)
        }
        let newest = try store.read { try $0.fetch(Query<MacroFeed.Post>().sorted(by: MacroFeed.Post.byCreated).limit(3)) }
        #expect(newest.map(\.id) == [199, 198, 197])
        #expect(try store.read { try $0.fetch(Query<MacroFeed.Post>()) } == Self.posts)

        // The Codable form is the synthesized one's, and the marks take the direct JSON path.
        #expect(!(MacroFeed.Post.self as Any.Type is any JSONObjectWritable.Type))
        #expect(MacroFeed.Mark.self as Any.Type is any JSONObjectWritable.Type)
        #expect(MacroFeed.Mark.self as Any.Type is any JSONObjectReadable.Type)
        let post = Self.posts[1]
        #expect(String(decoding: try RecordJSON.encoder().encode(post), as: UTF8.self)
            == #"{"created":"2023-11-14T22:13:21.000Z","id":1,"kind":"reply","location":{"lat":0.14285714285714285,"lon":-1},"text":"post 1"}"#)

        var exported: [UInt8] = []
        try store.exportNDJSON { exported.append(contentsOf: $0) }
        let file = dir.path + "/feed.ndjson"
        try Data(exported).write(to: URL(fileURLWithPath: file))
        let target = try Store.open(at: dir.path + "/b", collections: [MacroFeed.Post.self, MacroFeed.Mark.self])
        defer { target.close() }
        let fd = open(file, O_RDONLY)
        defer { close(fd) }
        #expect(try target.importNDJSON(from: fd, mode: .merge).records == Self.posts.count + marks.count)
        #expect(try target.read { try $0.fetch(Query<MacroFeed.Post>()) } == Self.posts)
        #expect(try target.read { try $0.fetch(Query<MacroFeed.Mark>()) } == marks)
    }

    @Test func aPropertyOfAPrivateTypeOfTheNamespace() throws {
        let drafts = [MacroFeed.Draft(id: 1, code: 7), MacroFeed.Draft(id: 2, code: nil)]
        let store = try Store.temporary(collections: [MacroFeed.Draft.self])
        defer { store.close() }
        try store.write { try $0.add(contentsOf: drafts, update: .all) }
        let back = try store.read { try $0.fetch(Query<MacroFeed.Draft>()) }
        #expect(back == drafts && back.map(\.code) == [7, nil])
        #expect(String(decoding: try RecordJSON.encoder().encode(drafts[0]), as: UTF8.self) == #"{"id":1,"secret":{"code":7}}"#)
    }

    @Test func aNamespacesOwnDateIsWrittenAndReadThroughCodable() throws {
        let event = MacroCalendar.Event(id: 1, when: .init(day: 3), until: .init(day: 4))
        let reference = Array(try RecordJSON.encoder().encode(event))
        #expect(String(decoding: reference, as: UTF8.self) == #"{"id":1,"until":{"day":4},"when":{"day":3}}"#)
        var object = JSONObjectWriter()
        event.writeJSONObject(to: &object)
        #expect(object.failed)
        var writer = RecordJSONWriter()
        var bytes: [UInt8] = []
        try writer.appendObject(event, to: &bytes)
        #expect(bytes == reference)
        for json in [reference, Array(#"{"id":2,"when":{"day":5}}"#.utf8)] {
            var reader = RecordJSONReader()
            let imported = try json.withUnsafeBytes { raw in
                try reader.decodeObject(MacroCalendar.Event.self, from: raw, parsed: try JSONTape.parse(raw, rejectingAmbiguousKeys: true))
            }
            #expect(imported == (try RecordJSON.decoder().decode(MacroCalendar.Event.self, from: Data(json))))
        }
    }
}
