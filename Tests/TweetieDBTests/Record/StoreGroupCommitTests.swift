import Foundation
import Testing
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

/// Store writes that share one commit keep the change log and the observers exact.
@Suite("Store group commit")
struct StoreGroupCommitTests {
    struct Refused: Error {}

    @Test func groupedWritesEachLogTheirOwnChangesAndObserversSeeEachOnce() async throws {
        var configuration = StoreConfiguration()
        configuration.durability = .noSync
        let store = try Store.temporary(collections: [Post.self], configuration: configuration)
        defer { store.close() }
        let epoch = Date(timeIntervalSince1970: 1_544_000_000)
        let iterator = UncheckedBox(store.observe(Query<Post>().sorted(byPrimaryKey: .ascending)).makeAsyncIterator())
        let initial = try await LiveQueryTests.next(iterator)
        #expect(initial.results.isEmpty)
        let before = try store.environment.read { $0.id }
        // Five writes in one group; the third adds its post, then throws.
        let writes: [@Sendable () async throws -> UInt64] = (0..<5).map { writer in
            {
                try await store.write { tx in
                    try tx.add(Post(id: Int64(writer), author: "w\(writer)", text: "t", created: epoch, likes: writer))
                    if writer == 2 { throw Refused() }
                    return try tx.lastChangeSequence()
                }
            }
        }
        let outcomes = try await GroupCommitTests.queuedTogether(on: store.environment, writes)
        #expect(try store.environment.read { $0.id } == before + 1, "the four writes committed together")
        #expect(throws: Refused.self) { try outcomes[2].get() }
        // Each body saw the sequence of the writes before it (its own entry is appended after it returns).
        #expect(try [0, 1, 3, 4].map { try outcomes[$0].get() } == [0, 1, 2, 3])
        let log = try await store.read { try $0.changeLog(after: 0) }
        #expect(log.entries.map(\.sequence) == [1, 2, 3, 4])
        #expect(log.entries.map { $0.changes["posts"]?.map(\.kind) ?? [] } == Array(repeating: [.inserted], count: 4))
        let keys = try log.entries.map { entry in try #require(entry.changes["posts"]?.first?.key) }
        #expect(keys == [0, 1, 3, 4].map { Post(id: $0, author: "", text: "", created: epoch, likes: 0).encodedPrimaryKey })
        // The observer gets every insertion once, however many wake-ups the group caused.
        var inserted = 0
        var results: [Int64] = []
        while results.count < 4 {
            let change = try await LiveQueryTests.next(iterator)
            inserted += change.changeset.insertions.count
            results = change.results.map(\.id)
        }
        #expect(inserted == 4)
        #expect(results == [0, 1, 3, 4])
    }
}
