import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Object store")
struct StoreTests {
    static let epoch = Date(timeIntervalSince1970: 1_544_000_000)

    func post(_ id: Int64, _ author: String = "ann", minutes: Int = 0, text: String = "hello", likes: Int = 0) -> Post {
        Post(id: id, author: author, text: text, created: StoreTests.epoch.addingTimeInterval(Double(minutes) * 60), likes: likes)
    }

    @Test func addGetCountContainsAndReopen() throws {
        let dir = TemporaryDirectory("store")
        defer { dir.remove() }
        do {
            let store = try Store.open(at: dir.path, collections: [Post.self, Member.self])
            try store.write { tx in
                for i in 1...50 { try tx.add(post(Int64(i), minutes: i)) }
            }
            #expect(try store.read { try $0.count(Post.self) } == 50)
            #expect(try store.read { try $0.get(Post.self, key: 7) } == post(7, minutes: 7))
            #expect(try store.read { try $0.contains(Post.self, key: 51) } == false)
            store.close()
        }
        let store = try Store.open(at: dir.path, collections: [Post.self, Member.self])
        defer { store.close() }
        #expect(try store.read { try $0.count(Post.self) } == 50)
        #expect(try store.read { try $0.get(Post.self, key: 50) }?.created == StoreTests.epoch.addingTimeInterval(3000))
    }

    @Test func updatePoliciesFollowRealmAndReportExactly() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try store.write { tx in try tx.add(post(1)) }
        // .error: an existing key fails the whole transaction.
        let error = #expect(throws: StoreError.self) {
            try store.write { tx in
                try tx.add(post(2))
                try tx.add(post(1, text: "changed"))
            }
        }
        #expect(error?.code == .constraintViolation)
        #expect(try store.read { try $0.contains(Post.self, key: 2) } == false)
        // .modified: identical bytes are neither written nor reported.
        let (outcome, changes) = try store.write { tx in (try tx.add(post(1), update: .modified), tx.changes) }
        #expect(outcome == .unchanged)
        #expect(changes.isEmpty)
        // .all: always reported as modified.
        let (outcomeAll, changesAll) = try store.write { tx in (try tx.add(post(1), update: .all), tx.changes) }
        #expect(outcomeAll == .modified)
        #expect(changesAll.keys(of: "posts", kind: .modified) == [Post.encode(primaryKey: 1)])
        // .modified with different bytes: written and reported.
        let changed = try store.write { tx in try tx.add(post(1, likes: 9), update: .modified) }
        #expect(changed == .modified)
        #expect(try store.read { try $0.get(Post.self, key: 1) }?.likes == 9)
    }

    @Test func netChangesCollapseWithinATransaction() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try store.write { tx in try tx.add(post(1)); try tx.add(post(2)) }
        let changes = try store.write { tx in
            try tx.add(post(3))                       // insert
            try tx.delete(Post.self, key: 3)          // … then delete: nothing
            try tx.delete(Post.self, key: 1)          // delete
            try tx.add(post(1, likes: 1))             // … then insert: modified
            try tx.delete(Post.self, key: 2)          // deleted
            try tx.add(post(4)); try tx.add(post(4, likes: 2), update: .all) // inserted
            return tx.changes
        }
        #expect(changes.keys(of: "posts", kind: .inserted) == [Post.encode(primaryKey: 4)])
        #expect(changes.keys(of: "posts", kind: .modified) == [Post.encode(primaryKey: 1)])
        #expect(changes.keys(of: "posts", kind: .deleted) == [Post.encode(primaryKey: 2)])
        let log = try store.read { try $0.changeLog(after: 1) }
        #expect(log.entries.count == 1)
        #expect(log.entries[0].sequence == 2)
        #expect(Set(log.entries[0].changes["posts"]!.map(\.key)) == Set([1, 2, 4].map { Post.encode(primaryKey: $0) }))
    }

    @Test func indexesFollowDeletesAndKeyChanges() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try store.write { tx in
            try tx.add(post(1, "ann", minutes: 1))
            try tx.add(post(2, "bob", minutes: 2))
            try tx.add(post(3, "ann", minutes: 3))
        }
        try store.write { tx in
            try tx.add(post(1, "bob", minutes: 10), update: .all) // author and created change
            try tx.delete(Post.self, key: 3)
        }
        let byAuthor = try store.read { try $0.fetch(Query<Post>().filter(Post.byAuthor, equals: "bob").sorted(by: Post.byAuthor)) }
        #expect(byAuthor.map(\.id) == [1, 2])
        #expect(try store.read { try $0.fetch(Query<Post>().filter(Post.byAuthor, equals: "ann")) }.isEmpty)
        let newest = try store.read { try $0.fetch(Query<Post>().sorted(by: Post.byCreated)) }
        #expect(newest.map(\.id) == [1, 2])
        let report = try store.verify()
        #expect(report.problems.isEmpty)
        #expect(report.indexEntries == 4)
    }

    @Test func uniqueViolationRollsBackEverything() throws {
        let store = try Store.temporary(collections: [Member.self])
        defer { store.close() }
        try store.write { tx in try tx.add(Member(id: "a", handle: "ash", name: "Ash")) }
        let error = #expect(throws: StoreError.self) {
            try store.write { tx in
                try tx.add(Member(id: "b", handle: "bee", name: "Bee"))
                try tx.add(Member(id: "c", handle: "ash", name: "Copy"))
            }
        }
        #expect(error?.code == .constraintViolation)
        #expect(error?.message == "unique index 'handle' already holds the value \"ash\" for the record with key a, so c cannot use it")
        #expect(try store.read { try $0.count(Member.self) } == 1)
        #expect(try store.read { try $0.fetch(Query<Member>().filter(Member.byHandle, equals: "bee")) }.isEmpty)
        // Changing one's own unique value is fine.
        try store.write { tx in try tx.add(Member(id: "a", handle: "ash2", name: "Ash"), update: .all) }
        #expect(try store.read { try $0.fetch(Query<Member>().filter(Member.byHandle, equals: "ash2")) }.map(\.id) == ["a"])
        #expect(try store.verify().problems.isEmpty)
    }

    /// A seat: a unique index of two components, the first descending.
    struct Seat: Record, Identifiable {
        static let collectionName = "seats"
        static let indexes: [Index<Seat>] = [Index("place", unique: true, order: .descending) { $0.row }.then { $0.number }]
        var id: Int64
        var row: Int32
        var number: Int32
    }

    @Test func aUniqueViolationNamesTheValueOfEveryComponent() throws {
        let store = try Store.temporary(collections: [Seat.self])
        defer { store.close() }
        try store.write { tx in try tx.add(Seat(id: 1, row: 3, number: 7)) }
        let error = #expect(throws: StoreError.self) { try store.write { tx in try tx.add(Seat(id: 2, row: 3, number: 7)) } }
        #expect(error?.message == "unique index 'place' already holds the value (3, 7) for the record with key 1, so 2 cannot use it")
        #expect(error?.description.hasPrefix("add on 'seats#place'") == true, "\(error.map { "\($0)" } ?? "")")
    }

    @Test func queriesFilterSortAndPage() throws {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        defer { store.close() }
        let authors = ["ann", "bob", "cat", "ann2"]
        try store.write { tx in
            for i in 1...40 { try tx.add(post(Int64(i), authors[i % 4], minutes: (i * 7) % 40, likes: i % 5)) }
            for h in ["ash", "ashfurrow", "bee", "icanzilb"] { try tx.add(Member(id: h, handle: h, name: h.uppercased())) }
        }
        let all = try store.read { try $0.fetch(Query<Post>()) }
        #expect(all.map(\.id) == Array(1...40))
        // Primary key range, reverse, offset, limit.
        let range = try store.read { try $0.fetch(Query<Post>().filter(primaryKeyIn: 10...20).sorted(byPrimaryKey: .descending).offset(2).limit(3)) }
        #expect(range.map(\.id) == [18, 17, 16])
        let halfOpen = try store.read { try $0.fetch(Query<Post>().filter(primaryKeyIn: 10..<12)) }
        #expect(halfOpen.map(\.id) == [10, 11])
        // Index equality on the leading component; sorted by that index (author, then newest).
        let ann = try store.read { try $0.fetch(Query<Post>().filter(Post.byAuthor, equals: "ann").sorted(by: Post.byAuthor)) }
        let expectedAnn = all.filter { $0.author == "ann" }.sorted { $0.created > $1.created || ($0.created == $1.created && $0.id < $1.id) }
        #expect(ann.map(\.id) == expectedAnn.map(\.id))
        // String prefix on an index component: "ann" and "ann2".
        let prefixed = try store.read { try $0.fetchCount(Query<Post>().filter(Post.byAuthor, prefix: "ann")) }
        #expect(prefixed == 20)
        // Range on a descending component, sorted by a different index (in-memory sort).
        let from = StoreTests.epoch.addingTimeInterval(10 * 60), to = StoreTests.epoch.addingTimeInterval(20 * 60)
        let window = try store.read { try $0.fetch(Query<Post>().filter(Post.byCreated, from: from, to: to).sorted(byPrimaryKey: .ascending)) }
        #expect(window.map(\.id) == all.filter { $0.created >= from && $0.created <= to }.map(\.id))
        let exclusive = try store.read { try $0.fetch(Query<Post>().filter(Post.byCreated, from: from, to: to, upperInclusive: false)) }
        #expect(Set(exclusive.map(\.id)) == Set(all.filter { $0.created >= from && $0.created < to }.map(\.id)))
        // Predicate + sort by index descending (oldest first) + limit.
        let liked = try store.read { try $0.fetch(Query<Post>().filter { $0.likes == 4 }.sorted(by: Post.byCreated, .descending).limit(3)) }
        let expectedLiked = all.filter { $0.likes == 4 }.sorted { $0.created < $1.created || ($0.created == $1.created && $0.id > $1.id) }.prefix(3)
        #expect(liked.map(\.id) == expectedLiked.map(\.id))
        // String primary-key prefix.
        let members = try store.read { try $0.fetch(Query<Member>().filter(primaryKeyPrefix: "ash")) }
        #expect(members.map(\.id) == ["ash", "ashfurrow"])
        // Unknown index: a clear error.
        let error = #expect(throws: StoreError.self) { try store.read { try $0.fetch(Query<Post>().sorted(byIndex: "nope")) } }
        #expect(error?.message.contains("no index named 'nope'") == true)
    }

    @Test func deleteByQueryAndDeleteAll() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try store.write { tx in for i in 1...10 { try tx.add(post(Int64(i), i.isMultiple(of: 2) ? "even" : "odd", minutes: i)) } }
        let removed = try store.write { tx in try tx.delete(Query<Post>().filter(Post.byAuthor, equals: "even")) }
        #expect(removed == 5)
        #expect(try store.read { try $0.fetch(Query<Post>()) }.map(\.id) == [1, 3, 5, 7, 9])
        let (all, changes) = try store.write { tx in (try tx.deleteAll(Post.self), tx.changes) }
        #expect(all == 5)
        #expect(changes.keys(of: "posts", kind: .deleted).count == 5)
        #expect(try store.read { try $0.count(Post.self) } == 0)
        #expect(try store.verify().problems.isEmpty)
    }

    @Test func newerFormatIsRefusedAndLeftUntouched() throws {
        let dir = TemporaryDirectory("newer")
        defer { dir.remove() }
        do {
            let store = try Store.open(at: dir.path, collections: [Post.self])
            try store.write { tx in try tx.add(post(1)) }
            store.close()
        }
        do {
            let env = try Environment.open(at: dir.path)
            let meta = try env.database(named: "_meta")
            try env.write { tx in try tx.put(Array("format".utf8), [0, 0, 0, 99], in: meta) }
            env.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb")))
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .newerFormat)
        #expect(error?.message.contains("99") == true)
        let after = try Data(contentsOf: URL(fileURLWithPath: dir.sub("data.mdb")))
        #expect(before == after)
    }

    @Test func foreignLMDBDatabaseIsRefused() throws {
        let dir = TemporaryDirectory("foreign")
        defer { dir.remove() }
        do {
            let env = try Environment.open(at: dir.path)
            let other = try env.database(named: "somebody-else")
            try env.write { tx in try tx.put(bytes("k"), bytes("v"), in: other) }
            env.close()
        }
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(error?.code == .notADatabase)
    }

    struct PostV2: Record, Identifiable {
        static let collectionName = "posts"
        static let schemaVersion = 2
        static let byLang = Index<PostV2>.on("lang") { $0.lang ?? "" }
        static let indexes: [Index<PostV2>] = [
            Index("created", order: .descending) { $0.created },
            Index("author") { $0.author }.then(order: .descending) { $0.created },
            byLang.index,
        ]
        var id: Int64
        var author: String
        var text: String
        var created: Date
        var likes: Int
        var lang: String?
    }

    @Test func migrationRunsOnceWhenTheSchemaVersionGoesUp() throws {
        let dir = TemporaryDirectory("migrate")
        defer { dir.remove() }
        do {
            let store = try Store.open(at: dir.path, collections: [Post.self])
            try store.write { tx in for i in 1...5 { try tx.add(post(Int64(i), minutes: i)) } }
            store.close()
        }
        let runs = Counter()
        let migration = Migration(PostV2.self) { context in
            runs.increment()
            #expect(context.fromVersion == 1 && context.toVersion == 2)
            for var old in try context.writer.fetch(Query<PostV2>()) {
                #expect(old.lang == nil) // decoded from version-1 bytes: the added field is nil
                old.lang = old.id.isMultiple(of: 2) ? "de" : "en"
                try context.writer.add(old, update: .all)
            }
        }
        do {
            let store = try Store.open(at: dir.path, collections: [PostV2.self], migrations: [migration])
            #expect(try store.read { try $0.fetch(Query<PostV2>().filter(PostV2.byLang, equals: "de")) }.map(\.id) == [2, 4])
            #expect(try store.verify().problems.isEmpty)
            store.close()
        }
        let again = try Store.open(at: dir.path, collections: [PostV2.self], migrations: [migration])
        again.close()
        #expect(runs.value == 1)
        // A failing migration leaves the database as it was.
        struct Nope: Error {}
        struct PostV3: Record, Identifiable {
            static let collectionName = "posts"
            static let schemaVersion = 3
            var id: Int64
        }
        let failing = Migration(PostV3.self) { context in
            try context.writer.deleteAll(PostV3.self)
            throw Nope()
        }
        let error = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [PostV3.self], migrations: [failing]) }
        #expect(error?.code == .migrationFailed)
        let check = try Store.open(at: dir.path, collections: [PostV2.self])
        defer { check.close() }
        #expect(try check.read { try $0.count(PostV2.self) } == 5)
        // An older type on a newer collection is refused.
        check.close()
        let older = #expect(throws: StoreError.self) { try Store.open(at: dir.path, collections: [Post.self]) }
        #expect(older?.code == .newerFormat)
    }

    @Test func temporaryStoreIsRemovedOnClose() throws {
        let store = try Store.temporary(collections: [Post.self])
        try store.write { tx in try tx.add(post(1)) }
        let path = store.path
        #expect(FileManager.default.fileExists(atPath: path + "/data.mdb"))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func unregisteredTypeAndBadCollectionNamesAreClearErrors() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        let error = #expect(throws: StoreError.self) { try store.write { tx in try tx.add(Member(id: "a", handle: "a", name: "a")) } }
        #expect(error?.message.contains("not registered") == true)
        struct Bad: Record, Identifiable { static let collectionName = "_secret"; var id: Int64 }
        #expect(throws: StoreError.self) { try Store.temporary(collections: [Bad.self]) }
        #expect(throws: StoreError.self) { try Store.temporary(collections: [Post.self, Post.self]) }
    }

    @Test func asyncWritesFromManyTasksAllLandAndAreLogged() async throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<16 {
                group.addTask {
                    for i in 0..<10 {
                        let p = Post(id: Int64(t * 100 + i), author: "t\(t)", text: "x", created: StoreTests.epoch, likes: i)
                        try await store.write { tx in try tx.add(p) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { try $0.count(Post.self) } == 160)
        #expect(try await store.read { try $0.lastChangeSequence() } == 160)
    }

    @Test func changeLogKeepsItsRetentionBound() throws {
        var configuration = StoreConfiguration()
        configuration.changeLogRetention = 10
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        for i in 1...25 { try store.write { tx in try tx.add(post(Int64(i))) } }
        #expect(try store.read { try $0.changeLogRange() } == 16...25)
        let slice = try store.read { try $0.changeLog(after: 3) }
        #expect(slice.isTruncated)
        let recent = try store.read { try $0.changeLog(after: 20) }
        #expect(!recent.isTruncated && recent.entries.map(\.sequence) == [21, 22, 23, 24, 25])
    }

    /// Above 64 entries of retention the oldest are pruned in batches of retention/64, not one per
    /// commit: the log holds between `retention` and `retention + batch - 1` entries.
    @Test func changeLogPrunesInBatchesAboveItsRetentionBound() throws {
        var configuration = StoreConfiguration()
        configuration.changeLogRetention = 256  // batches of 4
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        var ranges: [ClosedRange<UInt64>] = []
        for i in 1...264 {
            try store.write { tx in try tx.add(post(Int64(i))) }
            if i >= 256 { ranges.append(try store.read { try $0.changeLogRange() }!) }
        }
        // Sequence 260 is the first whose cutoff (4) is a multiple of 4: entries 1…4 go at once.
        #expect(ranges == [1...256, 1...257, 1...258, 1...259, 5...260, 5...261, 5...262, 5...263, 9...264])
        #expect(try store.read { try $0.changeLog(after: 8) }.isTruncated == false)
        #expect(try store.read { try $0.changeLog(after: 7) }.isTruncated)
    }

    /// `.all` reports an identical record as modified without rewriting it: the commit frees
    /// fewer pages than one that changes the record (the record's leaf is not copied).
    @Test func addAllOfAnIdenticalRecordReportsItWithoutRewritingIt() throws {
        let store = try Store.temporary(collections: [Post.self])
        defer { store.close() }
        try store.write { tx in try tx.add(post(1)) }
        let key = Post.encode(primaryKey: 1)
        let (identical, changed, free) = try store.environment.read { _ in
            // The open read pins what both commits free, so their free-list records stay whole.
            let identical = try store.write { tx in (try tx.add(post(1), update: .all), tx.changes, tx.transaction.id) }
            var other = post(1)
            other.text = "changed"
            let changed = try store.write { tx in (try tx.add(other, update: .all), tx.changes, tx.transaction.id) }
            return (identical, changed, try store.environment.freeList())
        }
        #expect(identical.0 == .modified && changed.0 == .modified)
        #expect(identical.1.keys(of: "posts", kind: .modified) == [key])
        #expect(changed.1.keys(of: "posts", kind: .modified) == [key])
        let freedByIdentical = free.records.first { $0.transactionID == identical.2 }?.pageCount ?? 0
        let freedByChanged = free.records.first { $0.transactionID == changed.2 }?.pageCount ?? 0
        #expect(freedByIdentical > 0 && freedByIdentical < freedByChanged)
        #expect(try store.read { try $0.changeLog(after: 1) }.entries.count == 2)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
