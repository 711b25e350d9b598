import Foundation
import Testing
import TweetieDB
import TweetieTestSupport

// The examples of the TweetieDBCore.docc articles (Getting Started, Records and Indexes, Live Queries
// and Changesets), run: each test does what an article shows and checks that it does what the
// article says. DocumentationExamplesTests type-checks the articles' own text; this file keeps their
// types and calls, with the results checked. Only the public API is imported.

/// The articles' record type.
@Record(collection: "notes")
struct Note: Identifiable, Equatable, Sendable {
    static let byAuthor = Index<Note>.on("author", \.author).then(order: .descending, \.updated)  // by author, newest first
    static let indexes = [byUpdated.index, byAuthor.index]

    var id: Int64
    var author: String
    var text: String
    @Indexed(order: .descending) var updated: Date    // declares Note.byUpdated, newest first
}

/// Records and Indexes: a unique index and a `String` primary key.
@Record(collection: "accounts")
struct Account: Identifiable, Sendable {
    var id: String                          // the primary key: a `String`
    @Indexed(unique: true) var email: String  // Account.byEmail
}

/// Records and Indexes: the second schema version of a record, and its migration.
@Record(collection: "labels")
struct Label: Identifiable, Sendable {
    static let schemaVersion = 2         // was 1, when `name` could be mixed case

    var id: Int64
    var name: String
}

private let day: TimeInterval = 86_400
private let monday = Date(timeIntervalSince1970: 1_544_400_000)  // 2018-12-10

@Suite("The articles' examples")
struct ArticleExamplesTests {
    // MARK: Getting Started

    @Test func gettingStarted() throws {
        let directory = TemporaryDirectory("articles")
        defer { directory.remove() }
        let path = directory.sub("notes")

        let store = try Store.open(at: path, collections: [Note.self])
        defer { store.close() }

        try store.write { tx in
            try tx.add(Note(id: 1, author: "ann", text: "Hello", updated: .now))
            try tx.add(Note(id: 2, author: "bob", text: "Hi, Ann", updated: .now))
        }

        let annsNotes = try store.read { tx in
            try tx.fetch(Query<Note>().filter(Note.byAuthor, equals: "ann"))
        }
        #expect(annsNotes.map(\.text) == ["Hello"])
    }

    @Test func gettingStartedFromAsyncCode() async throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        try await store.write { tx in
            try tx.add(Note(id: 1, author: "ann", text: "Hello", updated: .now))
            try tx.add(Note(id: 2, author: "bob", text: "Hi, Ann", updated: .now))
        }

        let outcome = try await store.write { tx in
            try tx.add(Note(id: 1, author: "ann", text: "Hello again", updated: .now), update: .modified)
        }
        #expect(outcome == .modified)

        let count = try await store.read { tx in try tx.count(Note.self) }
        #expect(count == 2)
    }

    @Test func gettingStartedTemporaryStore() throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        let path = store.path
        #expect(FileManager.default.fileExists(atPath: path))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: Records and Indexes

    @Test func updatePolicies() throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        let note = Note(id: 1, author: "ann", text: "Hello", updated: monday)

        let outcomes = try store.write { tx in
            [try tx.add(note),                       // .inserted; .error, the default, fails on an existing key
             try tx.add(note, update: .modified),    // .unchanged: the same bytes are neither written nor reported
             try tx.add(note, update: .all)]         // .modified: always written and reported
        }
        #expect(outcomes == [.inserted, .unchanged, .modified])
        #expect(throws: StoreError.self) {
            try store.write { tx in try tx.add(note) }                  // `.error`, the default: the key exists
        }
    }

    @Test func aUniqueIndexViolationRollsBackTheTransaction() throws {
        let store = try Store.temporary(collections: [Account.self])
        defer { store.close() }

        do {
            try store.write { tx in
                try tx.add(Account(id: "ann", email: "ann@example.com"))
                try tx.add(Account(id: "anne", email: "ann@example.com"))  // the same email
            }
        } catch let error as StoreError where error.code == .constraintViolation {
            // Nothing of the transaction was written: "ann" is not stored either.
        }
        #expect(try store.read { tx in try tx.count(Account.self) } == 0)
    }

    @Test func queries() throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        try store.write { tx in
            for i in 0..<10 {
                try tx.add(Note(id: Int64(i), author: i.isMultiple(of: 2) ? "ann" : "bob", text: "note \(i)",
                                updated: monday.addingTimeInterval(Double(i) * day)))
            }
        }

        let newest = Query<Note>().sorted(by: Note.byUpdated).limit(3)
        let annsNewest = Query<Note>().filter(Note.byAuthor, equals: "ann").sorted(by: Note.byAuthor)
        let firstWeek = Query<Note>().filter(Note.byUpdated, from: monday, to: monday + 6 * day)
        let annsFirstWeek = Query<Note>().filter(Note.byAuthor, equals: "ann", from: monday, to: monday + 6 * day)
        let byName = Query<Note>().filter(index: "author", equals: "ann")      // a name known only at run time
        let mentions = Query<Note>().filter { $0.text.contains("7") }
        let page2 = Query<Note>().sorted(byPrimaryKey: .descending).offset(5).limit(5)

        try store.read { tx in
            #expect(try tx.fetch(newest).map(\.id) == [9, 8, 7])
            #expect(try tx.fetch(annsNewest).map(\.id) == [8, 6, 4, 2, 0])
            let week = try tx.fetch(firstWeek).map(\.id)
            #expect(week == [0, 1, 2, 3, 4, 5, 6], "\(week)")  // no sort: by primary key
            #expect(try tx.fetch(annsFirstWeek).map(\.id) == [0, 2, 4, 6])
            #expect(try tx.fetch(byName).map(\.id) == [0, 2, 4, 6, 8])
            #expect(try tx.fetch(mentions).map(\.id) == [7])
            #expect(try tx.fetch(page2).map(\.id) == [4, 3, 2, 1, 0])
            #expect(try tx.fetchCount(annsNewest) == 5)
            let longest = try tx.records(Query<Note>()).max { $0.text.count < $1.text.count }
            #expect(longest != nil)
        }
    }

    @Test func migration() throws {
        let directory = TemporaryDirectory("articles")
        defer { directory.remove() }
        let path = directory.sub("labels")
        // Version 1 of the collection, stored before `Label.schemaVersion` became 2.
        do {
            let store = try Store.open(at: path, collections: [LabelVersion1.self])
            try store.write { tx in try tx.add(LabelVersion1(id: 1, name: "Swift")) }
            store.close()
        }

        let lowercased = Migration(Label.self) { context in
            for var label in try context.writer.fetch(Query<Label>()) {
                label.name = label.name.lowercased()
                try context.writer.add(label, update: .all)
            }
        }
        let store = try Store.open(at: path, collections: [Label.self], migrations: [lowercased])
        defer { store.close() }

        #expect(try store.read { tx in try tx.get(Label.self, key: 1)?.name } == "swift")
    }

    // MARK: Live Queries and Changesets

    @Test func liveQuery() async throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        try await store.write { tx in try tx.add(Note(id: 1, author: "ann", text: "first", updated: monday)) }

        var rows: [Note] = []
        let changes = Pull(store.observe(Query<Note>().sorted(by: Note.byUpdated)))
        for step in 0..<3 {
            let change = try await changes.element()
            if change.isInitial {
                rows = Array(change.results)                          // reload
            } else {
                let new = Array(change.results)
                rows = change.changeset.apply(to: rows) { new[$0] }   // or animate the changeset
            }
            #expect(rows == Array(change.results))
            if step == 0 {
                try await store.write { tx in try tx.add(Note(id: 2, author: "bob", text: "second", updated: monday + day)) }
                #expect(rows.map(\.id) == [1])
            } else if step == 1 {
                #expect(change.changeset == Changeset(insertions: [0]))
                try await store.write { tx in _ = try tx.delete(Note.self, key: 1) }
            } else {
                #expect(change.changeset == Changeset(deletions: [1]))
            }
        }
    }

    @Test func sectionedLiveQuery() async throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        try await store.write { tx in try tx.add(Note(id: 1, author: "ann", text: "first", updated: monday)) }

        let byAuthor = store.observe(Query<Note>().sorted(by: Note.byUpdated), sectionedBy: { $0.author })
        let changes = Pull(byAuthor)
        var sections = try await changes.element().results.sections.map(\.rows)

        try await store.write { tx in try tx.add(Note(id: 2, author: "bob", text: "second", updated: monday + day)) }
        let change = try await changes.element()
        sections = change.changeset.apply(to: sections,
                                          insertedSection: { change.results.rows(inSection: $0) },
                                          newElement: { change.results[$0] })
        #expect(change.changeset.sectionInsertions == [1])
        #expect(change.changeset.rowInsertions.isEmpty)   // the rows of an inserted section come with it
        #expect(sections.map { $0.map(\.id) } == [[1], [2]])
        #expect(change.results.sectionKey(at: 1) == "bob")
    }

    @Test func narrowedLiveQuery() async throws {
        let store = try Store.temporary(collections: [Note.self])
        defer { store.close() }
        try await store.write { tx in
            try tx.add(Note(id: 1, author: "ann", text: "first", updated: monday))
            try tx.add(Note(id: 2, author: "bob", text: "second", updated: monday + day))
        }

        let texts = Pull(store.observe(Query<Note>().sorted(by: Note.byUpdated), modificationsOf: [ObservedField(\Note.text)]))
        _ = try await texts.element()
        try await store.write { tx in
            try tx.add(Note(id: 1, author: "Ann", text: "first", updated: monday), update: .modified)   // author only
            try tx.add(Note(id: 2, author: "bob", text: "edited", updated: monday + day), update: .modified)
        }
        let change = try await texts.element()
        #expect(change.changeset.modificationsInOld == [0])  // note 2 (newest first); note 1 is not reported
        #expect(change.results.map(\.text) == ["edited", "first"])
    }
}

/// `Label` as it was stored at schema version 1 (the same collection).
struct LabelVersion1: Record, Identifiable {
    static let collectionName = "labels"
    var id: Int64
    var name: String
}
