import Foundation
import Synchronization
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A record whose decoding fails when `fragile` is set: stored normally, it cannot be read back,
/// so a test can place decoding failures at chosen places of a large fetch.
struct FragileItem: Record, Codable, Identifiable, Hashable {
    static let collectionName = "fragile_items"
    static let byRank = Index<FragileItem>.on("rank", order: .descending, \.rank)
    static let indexes = [byRank.index]
    var id: Int64
    var rank: Int64
    var note: String
    var fragile = false

    struct Refused: Error, CustomStringConvertible {
        let id: Int64
        var description: String { "item \(id) refuses to be decoded" }
    }

    enum CodingKeys: String, CodingKey { case id, rank, note, fragile }

    init(id: Int64, rank: Int64, note: String, fragile: Bool = false) {
        self.id = id
        self.rank = rank
        self.note = note
        self.fragile = fragile
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        rank = try container.decode(Int64.self, forKey: .rank)
        note = try container.decode(String.self, forKey: .note)
        fragile = try container.decode(Bool.self, forKey: .fragile)
        if fragile { throw Refused(id: id) }
    }

    /// Item `id`: its rank is its id and the `rank` index is descending, so the `rank` walk meets
    /// the ids in reverse; the note repeats every 40 ids and is long enough to be shared.
    static func make(_ id: Int64, fragile: Bool = false) -> FragileItem {
        FragileItem(id: id, rank: id, note: "a note shared by every fortieth item, number \(id % 40)", fragile: fragile)
    }
}

/// A value that counts its live instances, to show that a fetch that fails frees what it
/// decoded before the failure.
final class LiveCounted: Codable, Sendable, Hashable {
    static let live = Mutex(0)
    let value: Int

    init(_ value: Int) {
        self.value = value
        Self.live.withLock { $0 += 1 }
    }

    required init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        Self.live.withLock { $0 += 1 }
    }

    deinit { Self.live.withLock { $0 -= 1 } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    static func == (a: LiveCounted, b: LiveCounted) -> Bool { a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A record holding a ``LiveCounted``; `fragile` as in ``FragileItem``. Only one test uses it.
struct CountedItem: Record, Codable, Identifiable {
    static let collectionName = "counted_items"
    var id: Int64
    var counted: LiveCounted
    var fragile: Bool

    enum CodingKeys: String, CodingKey { case id, counted, fragile }

    init(id: Int64, fragile: Bool) {
        self.id = id
        counted = LiveCounted(Int(id))
        self.fragile = fragile
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        counted = try container.decode(LiveCounted.self, forKey: .counted)
        fragile = try container.decode(Bool.self, forKey: .fragile)
        if fragile { throw FragileItem.Refused(id: id) }
    }
}

/// Large fetches decode on a second thread while the walk goes on (`FetchPipeline`): the records,
/// their order and the errors must be what a walk on one thread gives.
@Suite("A large fetch decodes beside its walk")
struct FetchDecodingAsideTests {
    static let count = 20_000

    /// The same query, walked on one thread: `forEach` never decodes aside.
    static func sequential(_ tx: some StoreReading, _ query: Query<FragileItem>) throws -> [FragileItem] {
        var records: [FragileItem] = []
        try tx.forEach(query) { records.append($0); return true }
        return records
    }

    static func filled(_ count: Int = count, fragile: Set<Int64> = []) throws -> Store {
        let store = try Store.temporary(collections: [FragileItem.self])
        try store.write { tx in
            try tx.add(contentsOf: (1...Int64(count)).map { FragileItem.make($0, fragile: fragile.contains($0)) })
        }
        return store
    }

    @Test func theSizeIsOneThatDecodesAside() {
        #expect(Self.count >= 2 * FetchPipeline.minimumCount)
        #expect(FetchPipeline.isWorthwhile == FetchPipeline.isWorthwhile(
            processors: ProcessInfo.processInfo.activeProcessorCount, environment: ProcessInfo.processInfo.environment))
    }

    @Test func oneProcessorOrOneMallocArenaDecodesOnTheWalkingThread() {
        #expect(FetchPipeline.isWorthwhile(processors: 2, environment: [:]))
        #expect(!FetchPipeline.isWorthwhile(processors: 1, environment: [:]))
        #expect(!FetchPipeline.isWorthwhile(processors: 8, environment: ["MALLOC_ARENA_MAX": "1"]))
        #expect(FetchPipeline.isWorthwhile(processors: 8, environment: ["MALLOC_ARENA_MAX": "2"]))
        #expect(!FetchPipeline.isWorthwhile(processors: 8, environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=1"]))
        #expect(FetchPipeline.isWorthwhile(processors: 8, environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=16"]))
        // Which of the two glibc applies when both are set is not documented: one arena in either counts.
        #expect(!FetchPipeline.isWorthwhile(processors: 8, environment: ["MALLOC_ARENA_MAX": "1", "GLIBC_TUNABLES": "glibc.malloc.arena_max=4"]))
        #expect(!FetchPipeline.isWorthwhile(processors: 8, environment: ["MALLOC_ARENA_MAX": "4", "GLIBC_TUNABLES": "glibc.malloc.arena_max=1"]))
    }

    @Test func largeFetchesInKeyAndIndexOrderMatchTheWalkOnOneThread() throws {
        let store = try Self.filled()
        defer { store.close() }
        let queries: [(String, Query<FragileItem>)] = [
            ("keys ascending", Query<FragileItem>().sorted(byPrimaryKey: .ascending)),
            ("keys descending", Query<FragileItem>().sorted(byPrimaryKey: .descending)),
            ("rank", Query<FragileItem>().sorted(by: FragileItem.byRank)),
            ("rank, limit 12,345", Query<FragileItem>().sorted(by: FragileItem.byRank).limit(12_345)),
            ("keys, limit 8,192", Query<FragileItem>().sorted(byPrimaryKey: .ascending).limit(FetchPipeline.minimumCount)),
        ]
        try store.read { tx in
            for (label, query) in queries {
                let fetched = try tx.fetch(query)
                let expected = try Self.sequential(tx, query)
                #expect(fetched.count == expected.count, "\(label)")
                #expect(fetched == expected, "\(label)")
            }
            // The expected orders, worked out from the ids.
            #expect(try tx.fetch(Query<FragileItem>().sorted(by: FragileItem.byRank)).map(\.id) == Array((1...Int64(Self.count)).reversed()))
            #expect(try tx.fetch(Query<FragileItem>().sorted(byPrimaryKey: .ascending).limit(12_345)).map(\.id) == Array(1...12_345))
        }
    }

    @Test func aLargeFetchInsideAWriteSeesTheTransactionsOwnChanges() throws {
        let store = try Self.filled()
        defer { store.close() }
        try store.write { tx in
            try tx.add(contentsOf: (1...Int64(Self.count)).filter { $0 % 3 == 0 }.map {
                FragileItem(id: $0, rank: $0 + 1_000_000, note: "changed in this transaction")
            }, update: .all)
            let fetched = try tx.fetch(Query<FragileItem>().sorted(by: FragileItem.byRank))
            #expect(fetched == (try Self.sequential(tx, Query<FragileItem>().sorted(by: FragileItem.byRank))))
            // Multiples of 3 now rank above every other item, highest first.
            #expect(fetched.prefix(3).map(\.id) == [19_998, 19_995, 19_992])
            #expect(fetched.prefix(3).allSatisfy { $0.note == "changed in this transaction" })
            #expect(fetched.last?.id == 1 && fetched.count == Self.count)
        }
    }

    /// The error a fetch throws, as text (the walk on one thread and the fetch must agree).
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        // Fragile ids, and which one each walk meets first.
        ([Int64(15_000), 17_000], Int64(15_000), Int64(17_000)),
        ([Int64(3), 19_999], Int64(3), Int64(19_999)),
        ([Int64(600)], Int64(600), Int64(600)),
        ([Int64(20_000)], Int64(20_000), Int64(20_000)),
    ])
    func theFirstRecordThatFailsInWalkOrderIsTheOneReported(fragile: [Int64], firstByKey: Int64, firstByRank: Int64) throws {
        let store = try Self.filled(fragile: Set(fragile))
        defer { store.close() }
        try store.read { tx in
            for (query, first) in [(Query<FragileItem>().sorted(byPrimaryKey: .ascending), firstByKey),
                                   (Query<FragileItem>().sorted(by: FragileItem.byRank), firstByRank)] {
                let fetched = Self.failure { _ = try tx.fetch(query) }
                let walked = Self.failure { _ = try Self.sequential(tx, query) }
                #expect(fetched != nil && fetched == walked)
                #expect(fetched?.contains("item \(first) refuses to be decoded") == true, "\(fetched ?? "no error")")
                #expect(fetched?.contains("cannot be decoded as FragileItem") == true)
            }
            // A limit that stops before the first failure reads every record it keeps.
            if firstByKey > Int64(FetchPipeline.minimumCount) {
                let records = try tx.fetch(Query<FragileItem>().sorted(byPrimaryKey: .ascending).limit(Int(firstByKey) - 1))
                #expect(records.map(\.id) == Array(1..<firstByKey))
            }
        }
    }

    @Test(arguments: [
        // The rank walk meets 12,000's entry (its record gone) before fragile 5,000.
        (Int64(5_000), Int64(12_000), "an index entry points to the missing record 12000"),
        // It meets fragile 15,000 first; the walk itself goes on to 3,000's entry before the
        // decoder reaches 15,000, and the decoding failure, earlier in walk order, wins.
        (Int64(15_000), Int64(3_000), "item 15000 refuses to be decoded"),
    ])
    func anIndexEntryWithoutItsRecordIsReportedWhereTheWalkMeetsIt(fragile: Int64, gone: Int64, byRank: String) throws {
        let store = try Self.filled(fragile: [fragile])
        defer { store.close() }
        try store.write { tx in
            // Behind the store's back: the record goes, its index entry stays.
            let records = try tx.store.descriptor(for: FragileItem.self).records
            #expect(try tx.writeTransaction.delete(FragileItem.encode(primaryKey: gone), in: records))
        }
        try store.read { tx in
            let rank = Query<FragileItem>().sorted(by: FragileItem.byRank)
            let fetched = Self.failure { _ = try tx.fetch(rank) }
            #expect(fetched != nil && fetched == Self.failure { _ = try Self.sequential(tx, rank) })
            #expect(fetched?.contains(byRank) == true, "\(fetched ?? "no error")")

            // The key walk never meets the missing record.
            let keys = Query<FragileItem>().sorted(byPrimaryKey: .ascending)
            let fetchedByKey = Self.failure { _ = try tx.fetch(keys) }
            #expect(fetchedByKey != nil && fetchedByKey == Self.failure { _ = try Self.sequential(tx, keys) })
            #expect(fetchedByKey?.contains("item \(fragile) refuses to be decoded") == true, "\(fetchedByKey ?? "no error")")
        }
    }

    @Test func aFetchThatFailsFreesTheRecordsItDecodedBeforeTheFailure() throws {
        let store = try Store.temporary(collections: [CountedItem.self])
        defer { store.close() }
        try store.write { tx in
            try tx.add(contentsOf: (1...Int64(Self.count)).map { CountedItem(id: $0, fragile: $0 == 18_000) })
        }
        #expect(LiveCounted.live.withLock { $0 } == 0)
        try store.read { tx in
            let all = try tx.fetch(Query<CountedItem>().limit(17_999))
            #expect(all.count == 17_999 && LiveCounted.live.withLock { $0 } == 17_999)
        }
        #expect(LiveCounted.live.withLock { $0 } == 0)
        try store.read { tx in
            #expect(Self.failure { _ = try tx.fetch(Query<CountedItem>()) }?.contains("item 18000 refuses to be decoded") == true)
        }
        // Every record decoded before 18,000 (by either thread) was freed with the failure.
        #expect(LiveCounted.live.withLock { $0 } == 0)
    }

    @Test func aFetchWhileTheDecoderIsBusyDecodesOnItsOwnThread() throws {
        let store = try Self.filled()
        defer { store.close() }
        let release = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        // Hold the decoder; another test's fetch may hold it already, so wait until this one can.
        while !HelperThread.fetchDecoder.tryStart({ holding.signal(); release.wait() }) { usleep(1_000) }
        holding.wait()
        defer { release.signal() }
        try store.read { tx in
            let rank = Query<FragileItem>().sorted(by: FragileItem.byRank)
            let ids = try tx.fetch(rank).map(\.id)
            #expect(ids == Array((1...Int64(Self.count)).reversed()))
            #expect(HelperThread.fetchDecoder.tryStart({}) == false)
        }
    }

    @Test func aStoreReadFromAnotherTaskWhileTheFetchDecodesIsUnaffected() async throws {
        // Two large fetches at once, from two tasks: each has its own decoder thread and tables.
        let store = try Self.filled()
        defer { store.close() }
        let expected = try await store.read { try Self.sequential($0, Query<FragileItem>().sorted(by: FragileItem.byRank)) }
        async let first = store.read { try $0.fetch(Query<FragileItem>().sorted(by: FragileItem.byRank)) }
        async let second = store.read { try $0.fetch(Query<FragileItem>().sorted(by: FragileItem.byRank)) }
        let (a, b) = try await (first, second)
        #expect(a == expected)
        #expect(b == expected)
    }
}
