import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A start of as many records as a fetch decodes on two threads copies them into several chunks,
/// which both threads decode, check for order and key, each its own chunks. The results, the
/// key table and the first changeset must be what one thread made, in every plan shape, and a
/// record that cannot be decoded must fail the start, naming its key, whichever thread met it.
@Suite("An observation's start on two threads")
struct LargeStartTests {
    /// Enough records for the second thread (FetchPipeline.minimumCount) and, with texts of
    /// about 100 bytes, several chunks.
    static let count = 24_000

    static func filledStore() async throws -> Store {
        let store = try Store.temporary(collections: [Post.self])
        let authors = ["ann", "bob", "cat"]
        let padding = String(repeating: "x", count: 90)
        try await store.write { tx in
            for i in 0..<count {
                try tx.add(LiveQueryTests.post(Int64((i * 7919) % count), authors[i % 3], hour: (i * 13) % 2_000,
                                               text: "\(i) \(padding)", likes: i))
            }
        }
        return store
    }

    @Test func everyPlanShapeStartsAsTheFetchAndItsFirstChangeApplies() async throws {
        #expect(FetchPipeline.minimumCount <= Self.count)
        let store = try await Self.filledStore()
        defer { store.close() }
        for (round, (name, query)) in InitialResultsTests.queries.enumerated() {
            let flat = UncheckedBox(store.observe(query).makeAsyncIterator())
            let sectioned = UncheckedBox(store.observe(query, sectionedBy: { LiveQueryTests.Day($0.created) }, sectionOrder: .descending)
                .makeAsyncIterator())
            let fetched = try await store.read { try $0.fetch(query) }
            let first = try await LiveQueryTests.next(flat)
            #expect(Array(first.results) == fetched, "\(name): the flat initial records")
            let firstSections = try await LiveQueryTests.nextSectioned(sectioned)
            #expect(InitialResultsTests.flattened(firstSections.results) == InitialResultsTests.expected(fetched), "\(name): the initial sections")

            try await InitialResultsTests.change(store, fetched, newID: Int64(Self.count + round))
            let refetched = try await store.read { try $0.fetch(query) }
            let second = try await LiveQueryTests.next(flat)
            #expect(second.changeset.apply(to: fetched.map(\.id)) { second.results[$0].id } == refetched.map(\.id),
                    "\(name): the flat changeset applied to the initial results")
            let secondSections = try await LiveQueryTests.nextSectioned(sectioned)
            let before = firstSections.results.sections.map { $0.rows.map(\.id) }
            let applied = secondSections.changeset.apply(to: before, insertedSection: { secondSections.results.rows(inSection: $0).map(\.id) },
                                                         newElement: { secondSections.results[$0].id })
            #expect(applied.flatMap { $0 } == InitialResultsTests.expected(refetched).flatMap(\.ids), "\(name): the sectioned changeset applied")
        }
    }

    /// A post whose `init(from:)` refuses one id, as a record stored by another version might.
    struct Picky: Record, Identifiable, Hashable {
        static let collectionName = "picky"
        static let byCreated = Index<Picky>.on("created", order: .descending, \.created)
        static let indexes = [byCreated.index]
        static let refused: Int64 = 17_771
        var id: Int64
        var text: String
        var created: Date

        init(id: Int64, text: String, created: Date) {
            self.id = id
            self.text = text
            self.created = created
        }

        enum CodingKeys: String, CodingKey { case id, text, created }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            guard id != Self.refused else {
                throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "id \(id) is refused")
            }
            text = try container.decode(String.self, forKey: .text)
            created = try container.decode(Date.self, forKey: .created)
        }
    }

    @Test(arguments: [false, true])
    func aRecordThatCannotBeDecodedFailsTheStartNamingItsKey(sectioned: Bool) async throws {
        let store = try Store.temporary(collections: [Picky.self])
        defer { store.close() }
        let padding = String(repeating: "y", count: 100)
        try await store.write { tx in
            for i in 0..<Int64(Self.count) {
                try tx.add(Picky(id: i, text: "\(i) \(padding)", created: Date(timeIntervalSince1970: Double(i * 600))))
            }
        }
        let query = Query<Picky>().sorted(byIndex: "created")
        let error: (any Error)?
        do {
            if sectioned {
                let iterator = store.observe(query, sectionedBy: { Int($0.created.timeIntervalSince1970 / 86_400) }).makeAsyncIterator()
                _ = try await iterator.next()
            } else {
                let iterator = store.observe(query).makeAsyncIterator()
                _ = try await iterator.next()
            }
            error = nil
        } catch let thrown {
            error = thrown
        }
        let storeError = try #require(error as? StoreError, "the start must fail: \(String(describing: error))")
        #expect(storeError.code == .decodingFailed)
        #expect(storeError.message.contains("17771") && storeError.message.contains("is refused"), "\(storeError.message)")
        // The store is fine, and an observation of the records before the refused one starts.
        let before = try await store.read { try $0.fetch(Query<Picky>().filter(primaryKeyIn: 0..<Picky.refused)) }
        #expect(before.count == Int(Picky.refused))
    }
}
