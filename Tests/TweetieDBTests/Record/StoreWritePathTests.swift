import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

/// A record that says which decoding path built it.
private struct Probe: Record, RecordCodable, Identifiable, Hashable {
    static let collectionName = "probes"
    static let byLabel = Index<Probe>.on("label", \.label)
    static let indexes = [byLabel.index]
    var id: Int64
    var label: String
    var decodedBy = "memberwise"

    init(id: Int64, label: String) {
        self.id = id
        self.label = label
    }

    enum CodingKeys: String, CodingKey { case id, label }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
        decodedBy = "codable"
    }

    func encode(to writer: inout RecordWriter) {
        writer.write(id, forKey: "id")
        writer.write(label, forKey: "label")
    }

    init(from reader: inout RecordFieldReader) throws {
        var id: Int64?, label: String?
        while let field = try reader.nextField() {
            switch field.name {
            case "id": id = try field.decode(Int64.self)
            case "label": label = try field.decode(String.self)
            default: break
            }
        }
        self.id = try reader.require(id, forKey: "id")
        self.label = try reader.require(label, forKey: "label")
        decodedBy = "fast"
    }
}

@Suite("Store write path")
struct StoreWritePathTests {
    func decodeThroughRecord<R: Record>(_ type: R.Type, _ bytes: [UInt8]) throws -> R {
        try bytes.withUnsafeBytes { try R._decodeStored($0, sharing: nil) }
    }

    @Test func recordCodableRecordsAreReadThroughTheirFastPath() throws {
        let bytes = try RecordEncoder().encode(Probe(id: 1, label: "a"))
        #expect(try decodeThroughRecord(Probe.self, bytes).decodedBy == "fast")
        let store = try Store.temporary(collections: [Probe.self])
        defer { store.close() }
        try store.write { tx in try tx.add(contentsOf: [Probe(id: 1, label: "a"), Probe(id: 2, label: "b")]) }
        let fetched = try store.read { try $0.fetch(Query<Probe>().sorted(by: Probe.byLabel)) }
        #expect(fetched.map(\.decodedBy) == ["fast", "fast"])
        #expect(try store.read { try $0.get(Probe.self, key: 2) }?.decodedBy == "fast")
    }

    @Test func aRefusedRecordLeavesNothingBehindEvenWhenTheErrorIsCaught() throws {
        let store = try Store.temporary(collections: [Member.self])
        defer { store.close() }
        try store.write { tx in try tx.add(Member(id: "a", handle: "ann", name: "Ann")) }
        // The caller catches the unique violation and commits the rest of the transaction.
        try store.write { tx in
            #expect(throws: StoreError.self) { try tx.add(Member(id: "b", handle: "ann", name: "Bob")) }
            #expect(throws: StoreError.self) { try tx.add(Member(id: "a", handle: "x", name: "Ann again"), update: .error) }
            try tx.add(Member(id: "c", handle: "cat", name: "Cat"))
        }
        #expect(try store.read { try $0.contains(Member.self, key: "b") } == false)
        #expect(try store.read { try $0.get(Member.self, key: "a") }?.handle == "ann")
        let report = try store.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.records["members"] == 2)
        #expect(report.indexEntries == 2)
    }

    @Test func upsertsMoveIndexEntriesAndKeepUnchangedOnes() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        let posts = (1...200).map { Post(id: Int64($0), author: "a\($0 % 7)", text: "t\($0)", created: epoch.addingTimeInterval(Double($0)), likes: 0) }
        // Descending keys: every insert misses the end of the tree.
        try store.write { tx in try tx.add(contentsOf: posts.reversed()) }
        let changed = posts.map { post -> Post in
            var post = post
            if post.id % 3 == 0 { post.author = "moved" }
            if post.id % 5 == 0 { post.likes = 1 }
            return post
        }
        let counts = try store.write { tx in try tx.add(contentsOf: changed, update: .modified) }
        let expectedModified = changed.filter { $0.id % 3 == 0 || $0.id % 5 == 0 }.count
        #expect(counts.modified == expectedModified)
        #expect(counts.unchanged == 200 - expectedModified)
        #expect(try store.read { try $0.fetch(Query<Post>().filter(Post.byAuthor, equals: "moved")) }.count == 66)
        let report = try store.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.indexEntries == 400)
    }

    @Test func fetchOfAWholeCollectionAndOfALimitedPageAgree() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        try store.write { tx in
            try tx.add(contentsOf: (1...300).map { Post(id: Int64($0), author: "a", text: "", created: epoch.addingTimeInterval(Double($0)), likes: $0) })
        }
        let all = try store.read { try $0.fetch(Query<Post>().sorted(by: Post.byCreated)) }
        #expect(all.map(\.id) == (1...300).reversed().map(Int64.init))
        let page = try store.read { try $0.fetch(Query<Post>().sorted(by: Post.byCreated).offset(290).limit(50)) }
        #expect(page.map(\.id) == Array(all.suffix(10).map(\.id)))
        var streamed: [Int64] = []
        try store.read { tx in try tx.forEach(Query<Post>().sorted(by: Post.byCreated)) { streamed.append($0.id); return true } }
        #expect(streamed == all.map(\.id))
    }

    @Test func putCursorsStayCorrectAcrossDropsDeletesAndReplacementsInOneTransaction() throws {
        // The store's puts go through one cursor per database for the whole transaction; removing
        // everything, deleting and replacing between them must not leave it pointing anywhere stale.
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        func post(_ id: Int, author: String, likes: Int = 0) -> Post {
            Post(id: Int64(id), author: author, text: String(repeating: "t", count: id % 90), created: epoch.addingTimeInterval(Double(id)), likes: likes)
        }
        let expected: [Post] = try store.write { tx in
            try tx.add(contentsOf: (1...3_000).map { post($0, author: "a\($0 % 9)") })
            #expect(try tx.deleteAll(Post.self) == 3_000)
            try tx.add(contentsOf: (1...2_000).reversed().map { post($0 * 2, author: "b\($0 % 5)") })
            for id in stride(from: 2, through: 4_000, by: 6) { try tx.delete(Post.self, key: Int64(id)) }
            // Replacements (a changed field moves the index entries) and new keys between old ones.
            try tx.add(contentsOf: (1...2_000).map { post($0 * 2, author: "c\($0 % 3)", likes: 1) }, update: .all)
            try tx.add(contentsOf: (0..<2_000).map { post($0 * 2 + 1, author: "d") })
            return (1...4_000).map { $0 % 2 == 0 ? post($0, author: "c\(($0 / 2) % 3)", likes: 1) : post($0, author: "d") }
        }
        let stored = try store.read { try $0.fetch(Query<Post>().sorted(byPrimaryKey: .ascending)) }
        #expect(stored == expected)
        #expect(try store.read { try $0.fetch(Query<Post>().sorted(by: Post.byCreated)) }.map(\.id) == (1...4_000).reversed().map(Int64.init))
        let report = try store.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.indexEntries == 8_000)
    }

    @Test func aBulkUpsertThatOutgrowsTheMapIsRetriedWholeThroughFreshPutCursors() throws {
        // MDB_MAP_FULL in the middle of the puts: the transaction is aborted, the map grown and the
        // body run again in a new transaction, whose puts must open new cursors.
        var configuration = StoreConfiguration()
        configuration.mapSize = 1 << 20
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        let posts = (1...20_000).map { Post(id: Int64($0), author: "a\($0 % 11)", text: String(repeating: "x", count: 200), created: epoch.addingTimeInterval(Double($0)), likes: $0) }
        let counts = try store.write { tx in try tx.add(contentsOf: posts) }
        #expect(counts.inserted == 20_000)
        #expect(try store.read { try $0.fetch(Query<Post>().sorted(byPrimaryKey: .ascending)) } == posts)
        let report = try store.verify()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.indexEntries == 40_000)
    }
}
