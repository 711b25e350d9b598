import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("Export and import")
struct TransferTests {
    static func seeded() throws -> Store {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        try store.write { tx in
            for i in 1...30 {
                try tx.add(Post(id: Int64(i), author: ["ann", "bob"][i % 2], text: "tweet \"\(i)\" ü \\ /\n",
                                created: Date(timeIntervalSince1970: 1_544_000_000.123 + Double(i) * 60.5), likes: i))
            }
            try tx.add(Member(id: "ash", handle: "ashfurrow", name: "Ash Furrow"))
        }
        return store
    }

    static func export(_ store: Store) throws -> [UInt8] {
        var out: [UInt8] = []
        try store.exportNDJSON { out.append(contentsOf: $0) }
        return out
    }

    /// Writes `bytes` to a temporary file and imports it.
    static func importBytes(_ bytes: [UInt8], into store: Store, mode: ImportMode = .merge) throws -> ImportSummary {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).ndjson").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        return try store.importNDJSON(from: fd, mode: mode)
    }

    @Test func roundTripIsByteIdentical() throws {
        let source = try Self.seeded()
        defer { source.close() }
        let first = try Self.export(source)
        let lines = String(decoding: first, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 32)
        #expect(lines[0].hasPrefix("{\"collections\":[{\"count\":1,\"name\":\"members\""))
        let target = try Store.temporary(collections: [Post.self, Member.self])
        defer { target.close() }
        let summary = try Self.importBytes(first, into: target)
        #expect(summary.records == 31 && summary.counts.inserted == 31)
        let second = try Self.export(target)
        #expect(second == first)
        if second != first {
            let a = String(decoding: first, as: UTF8.self).split(separator: "\n"), b = String(decoding: second, as: UTF8.self).split(separator: "\n")
            for (x, y) in zip(a, b) where x != y { Issue.record("first difference:\n\(x)\n\(y)"); break }
        }
        #expect(try target.verify().problems.isEmpty)
        // Importing the same file again merges to nothing new.
        let again = try Self.importBytes(first, into: target)
        #expect(again.counts.unchanged == 31)
    }

    /// An export spanning several of `ExportEncoder`'s batches (each encoded in slices on every
    /// core), two collections and a partial last batch: the lines are exactly the header, then
    /// `RecordJSON.encoder()`'s text of every record in key order, and `progress` rises to the
    /// total. A `write` that throws midway stops the export with its error, and the store exports
    /// normally afterwards.
    @Test func exportAcrossBatchesKeepsOrderAndStopsCleanly() throws {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        defer { store.close() }
        let posts = (1...Int64(10_000)).map { i in
            Post(id: i, author: ["ann", "bob", "cy"][Int(i % 3)], text: "post \(i) \"quoted\" ü",
                 created: Date(timeIntervalSince1970: 1_544_000_000 + Double(i)), likes: Int(i % 7))
        }
        let member = Member(id: "ash", handle: "ashfurrow", name: "Ash Furrow")
        try store.write { tx in
            try tx.add(contentsOf: posts)
            try tx.add(member)
        }
        let encoder = RecordJSON.encoder()
        var expected: [UInt8] = []
        expected += Array("{\"collection\":\"members\",\"record\":".utf8) + Array(try encoder.encode(member)) + [0x7D, 0x0A]
        for post in posts {
            expected += Array("{\"collection\":\"posts\",\"record\":".utf8) + Array(try encoder.encode(post)) + [0x7D, 0x0A]
        }
        var out: [UInt8] = []
        var reports: [(Int, Int)] = []
        let count = try store.exportNDJSON(progress: { reports.append(($0, $1)) }) { out.append(contentsOf: $0) }
        #expect(count == 10_001)
        let headerEnd = try #require(out.firstIndex(of: 0x0A))
        #expect(Array(out[(headerEnd + 1)...]) == expected)
        #expect(reports.count > 1 && reports.last! == (10_001, 10_001))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 <= $1.0 })

        struct Full: Error {}
        var calls = 0
        #expect(throws: Full.self) {
            try store.exportNDJSON { _ in
                calls += 1
                if calls == 3 { throw Full() }
            }
        }
        #expect(calls == 3)
        #expect(try Self.export(store) == out)
    }

    /// A second collection with a non-unique index at the same position as `Post`'s first.
    struct Comment: Record, Identifiable, Hashable {
        static let collectionName = "comments"
        static let byPost = Index<Comment>.on("post", \.post)
        static let indexes = [byPost.index]
        var id: Int64
        var post: Int64
        var text: String
    }

    /// An import holds new records' non-unique index entries back and writes them in key order,
    /// per collection: with collections interleaved in the file (two of them with a non-unique
    /// index at the same position) and records that replace stored ones, every index lists
    /// exactly its records, in order. An import that fails after entries were held back leaves
    /// the store as it was: a later batch's indexes hold exactly its own records.
    @Test func importedIndexEntriesAreWrittenPerCollectionAndDroppedOnFailure() throws {
        let collections: [any Record.Type] = [Post.self, Member.self, Comment.self]
        let source = try Store.temporary(collections: collections)
        defer { source.close() }
        try source.write { tx in
            for i in 1...30 {
                try tx.add(Post(id: Int64(i), author: ["ann", "bob", "cy"][i % 3], text: "post \(i)",
                                created: Date(timeIntervalSince1970: 1_544_000_000 + Double(i) * 60), likes: i))
            }
            for i in 1...8 { try tx.add(Comment(id: Int64(i), post: Int64(31 - i), text: "comment \(i)")) }
            try tx.add(Member(id: "ash", handle: "ashfurrow", name: "Ash Furrow"))
        }
        let lines = String(decoding: try Self.export(source), as: UTF8.self).split(separator: "\n").map(String.init)
        func of(_ name: String) -> [String] { lines.filter { $0.hasPrefix("{\"collection\":\"\(name)\"") } }
        let posts = of("posts"), comments = of("comments"), member = of("members")
        // The collection changes five times.
        let interleaved = ([lines[0]] + posts[..<10] + comments[..<3] + member + posts[10...] + comments[3...])
            .joined(separator: "\n") + "\n"

        let target = try Store.temporary(collections: collections)
        defer { target.close() }
        try target.write { tx in
            for id in [3, 12, 25] {
                try tx.add(Post(id: Int64(id), author: "zed", text: "old", created: Date(timeIntervalSince1970: Double(id)), likes: 0))
            }
        }
        let summary = try Self.importBytes(Array(interleaved.utf8), into: target)
        #expect(summary.counts.inserted == 36 && summary.counts.modified == 3)
        #expect(try target.verify().problems.isEmpty)
        func indexes(_ store: Store) throws -> [[String]] {
            try store.read { tx in
                [try tx.fetch(Query<Post>().sorted(by: Post.byCreated)).map { "\($0.id)" },
                 try tx.fetch(Query<Post>().sorted(by: Post.byAuthor)).map { "\($0.id)" },
                 try tx.fetch(Query<Comment>().sorted(by: Comment.byPost)).map { "\($0.id)" },
                 try tx.fetch(Query<Member>().sorted(by: Member.byHandle)).map(\.id)]
            }
        }
        let imported = try indexes(target)
        #expect(imported == (try indexes(source)))
        #expect(imported.map(\.count) == [30, 30, 8, 1])

        // The same file into an empty store, broken after its last record: nothing is imported,
        // and a later batch of other posts leaves the indexes exactly its own.
        let broken = try Store.temporary(collections: collections)
        defer { broken.close() }
        #expect(throws: TransferError.self) { try Self.importBytes(Array((interleaved + "{not json}\n").utf8), into: broken) }
        try broken.write { tx in
            try tx.add(contentsOf: (100...104).map { Post(id: Int64($0), author: "amy", text: "new", created: Date(timeIntervalSince1970: Double($0)), likes: 1) })
        }
        #expect(try broken.verify().problems.isEmpty)
        #expect(try indexes(broken) == [["104", "103", "102", "101", "100"], ["104", "103", "102", "101", "100"], [], []])
    }

    @Test(arguments: [
        ("empty", "", "empty"),
        ("no header", "{\"collection\":\"posts\",\"record\":{}}\n", "header"),
        ("bad json", "HEADER\n{\"collection\":\"posts\",\"record\":\n", "line 2: the line is not valid JSON"),
        ("wrong type", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"handle\":7,\"name\":\"n\"}}\n", "line 2: the record is not a valid Member: wrong type at 'handle'"),
        ("missing field", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"name\":\"n\"}}\n", "missing field 'handle'"),
        ("unknown collection", "HEADER\n{\"collection\":\"nope\",\"record\":{}}\n", "line 2: unknown collection 'nope'"),
        ("duplicate", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"handle\":\"a\",\"name\":\"n\"}}\n{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"handle\":\"b\",\"name\":\"n\"}}\n", "line 3: duplicate key x"),
        ("truncated", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"handle\":\"a\",\"name\":\"n\"}}", "line 2: the last line is truncated"),
        ("count mismatch", "HEADER\n", "announces 1 record(s) for 'members' but the file has 0"),
        ("unique clash", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"y\",\"handle\":\"ashfurrow\",\"name\":\"n\"}}\n", "line 2: unique index 'handle' already holds the value \"ashfurrow\" for ash"),
        ("key too long", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"\(String(repeating: "k", count: 600))\",\"handle\":\"h\",\"name\":\"n\"}}\n", "line 2: the primary key"),
        ("index entry too long", "HEADER\n{\"collection\":\"members\",\"record\":{\"id\":\"z\",\"handle\":\"\(String(repeating: "h", count: 600))\",\"name\":\"n\"}}\n", "the index entry for z is 602 bytes; LMDB keys are limited to 511"),
    ])
    func badInputIsRejectedWithItsLineAndChangesNothing(name: String, content: String, expected: String) throws {
        let store = try Self.seeded()
        defer { store.close() }
        let before = try Self.export(store)
        let header = "{\"collections\":[{\"count\":1,\"name\":\"members\",\"schemaVersion\":1}],\"format\":\"tweetie-db-export\",\"version\":1}"
        let input = content.replacingOccurrences(of: "HEADER", with: header)
        // In replace mode the clashing record is removed first, so that case applies to merge only.
        for mode in name == "unique clash" ? [.merge] : ImportMode.allCases {
            let error = #expect(throws: TransferError.self, "\(name)") { try Self.importBytes(Array(input.utf8), into: store, mode: mode) }
            #expect(error?.description.contains(expected) == true, "\(name): \(error?.description ?? "no error")")
            #expect(try Self.export(store) == before, "\(name): the database changed")
        }
    }

    @Test func overlongLineIsRejected() throws {
        let store = try Self.seeded()
        defer { store.close() }
        let header = "{\"collections\":[{\"count\":1,\"name\":\"members\",\"schemaVersion\":1}],\"format\":\"tweetie-db-export\",\"version\":1}\n"
        let long = header + "{\"collection\":\"members\",\"record\":{\"id\":\"x\",\"handle\":\"a\",\"name\":\"" + String(repeating: "n", count: 3000) + "\"}}\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(long.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let error = #expect(throws: TransferError.self) { try store.importNDJSON(from: fd, mode: .merge, maxLineBytes: 1024) }
        #expect(error?.description == "line 2: the line is longer than 1024 bytes")
    }

    @Test func replaceModeLeavesExactlyTheFile() throws {
        let source = try Self.seeded()
        defer { source.close() }
        let exported = try Self.export(source)
        let target = try Store.temporary(collections: [Post.self, Member.self])
        defer { target.close() }
        try target.write { tx in try tx.add(Member(id: "zzz", handle: "other", name: "Other")) }
        _ = try Self.importBytes(exported, into: target, mode: .replace)
        #expect(try Self.export(target) == exported)
    }
}
