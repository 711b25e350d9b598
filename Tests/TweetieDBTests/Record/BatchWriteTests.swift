import Foundation
import Synchronization
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A record whose non-unique index entries, for ids arriving in ascending order, ascend
/// ("rank", with ties), strictly descend ("down"), descend with ascending runs ("newest": `rank`
/// in descending order, ties by id ascending) or jump around ("group", then rank); plus a unique
/// index ("code"). `add(contentsOf:)` holds back the non-unique ones and writes them in key order.
struct BatchItem: Record, Identifiable, Hashable {
    static let collectionName = "batch_items"
    static let byRank = Index<BatchItem>.on("rank", \.rank)
    static let byDown = Index<BatchItem>.on("down", \.down)
    static let byNewest = Index<BatchItem>.on("newest", order: .descending, \.rank)
    static let byGroup = Index<BatchItem>.on("group", \.group).then(\.rank)
    static let byCode = Index<BatchItem>.on("code", unique: true, \.code)
    static let indexes = [byRank.index, byDown.index, byNewest.index, byGroup.index, byCode.index]
    var id: Int64
    var rank: Int64
    var down: Int64
    var group: String
    var code: String
    var payload: String

    static let groups = ["g-a", "g-b", "g-c", "g-d", "g-e"]
    /// A payload that makes `encode(to:)` throw.
    static let unencodable = "refuses to be encoded"

    enum CodingKeys: String, CodingKey { case id, rank, down, group, code, payload }

    func encode(to encoder: any Encoder) throws {
        if payload == Self.unencodable {
            throw EncodingError.invalidValue(payload, .init(codingPath: [CodingKeys.payload], debugDescription: "this record refuses to be encoded"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rank, forKey: .rank)
        try container.encode(down, forKey: .down)
        try container.encode(group, forKey: .group)
        try container.encode(code, forKey: .code)
        try container.encode(payload, forKey: .payload)
    }

    /// Version 0: index values follow the id. Later versions move every index value (and the
    /// unique code, to one no other id uses).
    static func make(_ id: Int64, version: Int64 = 0, payload: String? = nil) -> BatchItem {
        let rank = version == 0 ? id / 3 : (id &* 7_919 &+ version &* 13) % 1_000
        return BatchItem(id: id, rank: rank, down: 10_000_000 - id - version * 3,
                         group: groups[Int((id &* 7 &+ version) % 5)],
                         code: (version == 0 ? "c" : "v\(version)-") + padded(id),
                         payload: payload ?? "p\(id).\(version)")
    }

    static func padded(_ n: Int64) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// A record whose `encode(to:)` tries, for every 500th id, to start a write on the store it is
/// being written to, and notes how that ended (or that its thread is not marked as inside the
/// batch's write, where trying would hang).
struct ReentrantItem: Record, Identifiable, Hashable {
    static let collectionName = "reentrant_items"
    static let indexes: [Index<ReentrantItem>] = [Index("rank") { $0.rank }]
    var id: Int64
    var rank: Int64

    /// The store to write to, and each attempt's outcome.
    static let probe = Mutex<(store: Store?, outcomes: [String])>((nil, []))

    enum CodingKeys: String, CodingKey { case id, rank }

    func encode(to encoder: any Encoder) throws {
        if id % 500 == 0, let store = Self.probe.withLock({ $0.store }) {
            let outcome: String
            if ThreadTransactions.inWrite {
                do {
                    try store.write { _ in }
                    outcome = "wrote"
                } catch let error as StoreError {
                    outcome = "\(error.code)"
                }
            } else {
                // Not marked as inside the batch's write: a write from here would wait forever.
                outcome = "unmarked thread"
            }
            Self.probe.withLock { $0.outcomes.append(outcome) }
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rank, forKey: .rank)
    }
}

/// The order a batch's records are given in.
enum BatchOrder: String, CaseIterable, Sendable {
    case ascending, descending, shuffled

    func arrange(_ records: [BatchItem], seed: UInt64 = 42) -> [BatchItem] {
        switch self {
        case .ascending: return records.sorted { $0.id < $1.id }
        case .descending: return records.sorted { $0.id > $1.id }
        case .shuffled:
            var rng = SeededRandom(seed: seed)
            return records.shuffled(using: &rng)
        }
    }
}

/// What goes wrong at one position of a batch.
enum BatchFailure: String, CaseIterable, Sendable {
    /// The key of a record stored before the transaction, under `.error`.
    case storedKey
    /// The key of a record earlier in the same batch, under `.error`.
    case keyEarlierInBatch
    /// The unique code of a record stored before the transaction.
    case uniqueValueOfStoredRecord
    /// The unique code of a record earlier in the same batch.
    case uniqueValueEarlierInBatch
    /// A non-unique index entry longer than LMDB's key limit.
    case oversizedIndexEntry
    /// A record whose `encode(to:)` throws.
    case encodingFails

    var code: StoreError.Code {
        switch self {
        case .oversizedIndexEntry: .invalidArgument
        case .encodingFails: .encodingFailed
        default: .constraintViolation
        }
    }
}

/// A failing batch's order and size: batches of 1,024 records or more are encoded on a second
/// thread (`BatchPipeline`), in chunks of 256, and fail in a later chunk.
enum BatchShape: String, CaseIterable, Sendable {
    case smallAscending, smallShuffled, largeAscending, largeShuffled

    var order: BatchOrder { self == .smallAscending || self == .largeAscending ? .ascending : .shuffled }
    var size: Int64 { self == .smallAscending || self == .smallShuffled ? 600 : 3_000 }
    /// Where the failing record goes.
    var failingPosition: Int { size == 600 ? 400 : 2_500 }
}

/// The expected contents of the `batch_items` collection, and every index order worked out from
/// the records' fields (not from the store).
struct BatchModel {
    var items: [Int64: BatchItem] = [:]

    static func utf8Less(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    /// The index's order (ascending walk of its LMDB keys); ties by primary key.
    static func precedes(index: String) -> (BatchItem, BatchItem) -> Bool {
        switch index {
        case "rank": return { ($0.rank, $0.id) < ($1.rank, $1.id) }
        case "down": return { ($0.down, $0.id) < ($1.down, $1.id) }
        case "newest": return { $0.rank != $1.rank ? $0.rank > $1.rank : $0.id < $1.id }
        case "group": return { a, b in
            if a.group != b.group { return utf8Less(a.group, b.group) }
            return (a.rank, a.id) < (b.rank, b.id)
        }
        case "code": return { utf8Less($0.code, $1.code) }
        default: fatalError("no index \(index)")
        }
    }

    /// The records in the index's order.
    func sorted(byIndex index: String) -> [BatchItem] { items.values.sorted(by: BatchModel.precedes(index: index)) }

    var sortedRecords: [BatchItem] { items.values.sorted { $0.id < $1.id } }

    mutating func apply(_ records: some Sequence<BatchItem>) {
        for record in records { items[record.id] = record }
    }
}

/// Records an issue naming the first difference, not two lists of thousands of ids.
func expectSame<T: Equatable>(_ got: [T], _ want: [T], _ what: @autoclosure () -> String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    guard got != want else { return }
    let at = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
    let gotAt = at < got.count ? "\(got[at])" : "nothing", wantAt = at < want.count ? "\(want[at])" : "nothing"
    Issue.record("\(what()): \(got.count) elements, expected \(want.count); first difference at \(at): \(gotAt) instead of \(wantAt)",
                 sourceLocation: sourceLocation)
}

/// Everything a reader sees of `batch_items` equals the model: records, count, every index order
/// both ways, equality and range filters on the indexes, unique lookups.
func expectBatchReader(_ tx: some StoreReading, matches model: BatchModel, _ label: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try tx.count(BatchItem.self) == model.items.count, "\(label): count", sourceLocation: sourceLocation)
    let records = try tx.fetch(Query<BatchItem>().sorted(byPrimaryKey: .ascending)), expected = model.sortedRecords
    expectSame(records, expected, "\(label): records", sourceLocation: sourceLocation)
    // The model's index orders, each worked out once; filters keep their order.
    var orders: [String: [BatchItem]] = [:]
    for index in ["rank", "down", "newest", "group", "code"] {
        let ascending = model.sorted(byIndex: index)
        orders[index] = ascending
        for order in [TweetieDB.SortOrder.ascending, .descending] {
            let got = try tx.fetch(Query<BatchItem>().sorted(byIndex: index, order)).map(\.id)
            let want = ascending.map(\.id)
            expectSame(got, order == .ascending ? want : want.reversed(), "\(label): sorted by \(index) \(order)", sourceLocation: sourceLocation)
        }
    }
    func ids(_ index: String, _ order: TweetieDB.SortOrder = .ascending, where filter: (BatchItem) -> Bool) -> [Int64] {
        let ids = orders[index]!.filter(filter).map(\.id)
        return order == .ascending ? ids : ids.reversed()
    }
    for group in BatchItem.groups {
        let got = try tx.fetch(Query<BatchItem>().filter(BatchItem.byGroup, equals: group).sorted(by: BatchItem.byGroup)).map(\.id)
        expectSame(got, ids("group") { $0.group == group }, "\(label): group \(group)", sourceLocation: sourceLocation)
    }
    // Ranges over the ranks actually present.
    let ranks = orders["rank"]!.map(\.rank)
    if !ranks.isEmpty {
        let low = ranks[ranks.count / 4], high = ranks[(ranks.count * 3) / 4]
        let inRange = { (item: BatchItem) in item.rank >= low && item.rank <= high }
        let byRank = try tx.fetch(Query<BatchItem>().filter(BatchItem.byRank, from: low, to: high).sorted(by: BatchItem.byRank)).map(\.id)
        expectSame(byRank, ids("rank", where: inRange), "\(label): rank \(low)...\(high)", sourceLocation: sourceLocation)
        let newest = try tx.fetch(Query<BatchItem>().filter(BatchItem.byNewest, from: low, to: high).sorted(by: BatchItem.byNewest, .descending)).map(\.id)
        expectSame(newest, ids("newest", .descending, where: inRange), "\(label): newest \(low)...\(high)", sourceLocation: sourceLocation)
        let open = try tx.fetch(Query<BatchItem>().filter(BatchItem.byGroup, equals: "g-b", from: low, to: nil).sorted(by: BatchItem.byGroup)).map(\.id)
        expectSame(open, ids("group") { $0.group == "g-b" && $0.rank >= low }, "\(label): g-b from \(low)", sourceLocation: sourceLocation)
    }
    // Unique lookups: a sample of present codes, and codes that are absent.
    let sample = stride(from: 0, to: expected.count, by: 97).map { expected[$0] }
    for item in sample {
        let got = try tx.fetch(Query<BatchItem>().filter(BatchItem.byCode, equals: item.code)).map(\.id)
        #expect(got == [item.id], "\(label): code \(item.code)", sourceLocation: sourceLocation)
    }
    let codes = Set(model.items.values.map(\.code))
    for absent in ["c" + BatchItem.padded(99_999_999), "zzz"] where !codes.contains(absent) {
        #expect(try tx.fetch(Query<BatchItem>().filter(BatchItem.byCode, equals: absent)).isEmpty, "\(label): code \(absent)", sourceLocation: sourceLocation)
    }
}

/// `verify()` is clean and counts exactly the model's records and entries, and a read matches it.
func expectBatchStore(_ store: Store, matches model: BatchModel, _ label: String,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
    let report = try store.verify()
    #expect(report.problems.isEmpty, "\(label): \(report.problems.prefix(5))", sourceLocation: sourceLocation)
    #expect(report.records[BatchItem.collectionName] == model.items.count, "\(label): verified records", sourceLocation: sourceLocation)
    #expect(report.indexEntries == model.items.count * BatchItem.indexes.count, "\(label): index entries", sourceLocation: sourceLocation)
    try store.read { tx in try expectBatchReader(tx, matches: model, label, sourceLocation: sourceLocation) }
}

func batchKeys(_ ids: some Sequence<Int64>) -> Set<[UInt8]> { Set(ids.map { BatchItem.encode(primaryKey: $0) }) }

/// The change set's keys of one kind are exactly those of `ids`.
func expectChanges(_ changes: TransactionChanges, _ kind: ChangeKind, _ ids: some Sequence<Int64>, _ what: String = "",
                   sourceLocation: SourceLocation = #_sourceLocation) {
    let got = changes.keys(of: BatchItem.collectionName, kind: kind), want = batchKeys(ids)
    guard got != want else { return }
    Issue.record("\(what) \(kind): \(got.count) keys, expected \(want.count); \(got.subtracting(want).count) extra, \(want.subtracting(got).count) missing",
                 sourceLocation: sourceLocation)
}

@Suite("Batch writes: MDB_APPEND and index entries held back to the end of the batch")
struct BatchWriteTests {
    @Test(arguments: BatchOrder.allCases)
    func aBatchIntoAnEmptyStoreMatchesTheModel(order: BatchOrder) throws {
        let store = try Store.temporary(collections: [BatchItem.self])
        defer { store.close() }
        let batch = order.arrange((1...2_000).map { BatchItem.make($0) })
        var model = BatchModel()
        model.apply(batch)
        let (counts, changes) = try store.write { tx in
            let counts = try tx.add(contentsOf: batch)
            // Inside the transaction, right after the call, the held-back entries are in.
            try expectBatchReader(tx, matches: model, "\(order) inside the transaction")
            return (counts, tx.changes)
        }
        #expect(counts == WriteCounts(inserted: 2_000))
        expectChanges(changes, .inserted, 1...2_000)
        expectChanges(changes, .modified, [Int64]())
        expectChanges(changes, .deleted, [Int64]())
        try expectBatchStore(store, matches: model, "\(order)")
        // The change log holds the same set.
        let log = try store.read { try $0.changeLog(after: 0) }
        #expect(Set(log.entries.flatMap { $0.changes[BatchItem.collectionName] ?? [] }.map(\.key)) == batchKeys(1...2_000))
    }

    @Test(arguments: [BatchOrder.descending, .shuffled], [600, 3_000])
    func aBatchHoldingBackMoreThanItsLimitWritesAsItGoes(order: BatchOrder, count: Int) throws {
        // With the limit at 100 entries per index, the batch writes what it holds 6 (or 30)
        // times mid-batch: later entries then land among written ones instead of after them.
        let store = try Store.temporary(collections: [BatchItem.self])
        defer { store.close() }
        let stored = stride(from: Int64(2), through: 400, by: 2).map { BatchItem.make($0) }
        try store.write { tx in try tx.add(contentsOf: stored) }
        let batch = order.arrange((1...Int64(count)).filter { $0 > 400 || $0 % 2 == 1 }.map { BatchItem.make($0) }, seed: 9)
        var model = BatchModel()
        model.apply(stored)
        model.apply(batch)
        let counts = try store.write { tx in
            tx.scratch.pendingLimit = 100
            let counts = try tx.add(contentsOf: batch)
            // The memory stayed bounded: no index's held-back list ever grew past the limit.
            for pending in tx.scratch.pending { #expect(pending.entries.capacity < 200, "\(pending.entries.capacity)") }
            try expectBatchReader(tx, matches: model, "\(order) \(count) inside the transaction")
            return counts
        }
        #expect(counts == WriteCounts(inserted: batch.count))
        try expectBatchStore(store, matches: model, "\(order) \(count)")
    }

    @Test(arguments: BatchOrder.allCases)
    func aSecondBatchBetweenAndAfterStoredKeysThenDeletesInTheSameTransaction(order: BatchOrder) throws {
        let store = try Store.temporary(collections: [BatchItem.self])
        defer { store.close() }
        var model = BatchModel()
        let first = stride(from: Int64(2), through: 2_000, by: 2).map { BatchItem.make($0) }
        try store.write { tx in try tx.add(contentsOf: first) }
        model.apply(first)

        // Odd keys between the stored ones (every record and most entries miss the end of the
        // tree), then keys after them all (appends resume once the pause runs out).
        let newIDs = Array(stride(from: Int64(1), through: 1_999, by: 2)) + Array(2_001...2_600)
        let second = order.arrange(newIDs.map { BatchItem.make($0) }, seed: 7)
        let deletedIDs = Array(stride(from: Int64(1), through: 2_600, by: 7))
        let deletedByQuery = { (item: BatchItem) in item.group == "g-a" && item.rank >= 100 && item.rank <= 400 }
        let before = model
        var next = model
        next.apply(second)
        for id in deletedIDs { next.items[id] = nil }
        let queryVictims = next.items.values.filter(deletedByQuery).map(\.id)
        #expect(!queryVictims.isEmpty)
        for id in queryVictims { next.items[id] = nil }

        let (counts, changes) = try store.write { tx in
            let counts = try tx.add(contentsOf: second)
            for id in deletedIDs { #expect(try tx.delete(BatchItem.self, key: id)) }
            let deleted = try tx.delete(Query<BatchItem>().filter(BatchItem.byGroup, equals: "g-a", from: 100, to: 400))
            #expect(deleted == queryVictims.count)
            #expect(try tx.count(BatchItem.self) == next.items.count)
            let ga = try tx.fetch(Query<BatchItem>().filter(BatchItem.byGroup, equals: "g-a").sorted(by: BatchItem.byGroup, .descending)).map(\.id)
            expectSame(ga, next.sorted(byIndex: "group").filter { $0.group == "g-a" }.map(\.id).reversed(), "\(order) inside: g-a")
            return (counts, tx.changes)
        }
        model = next
        #expect(counts == WriteCounts(inserted: newIDs.count))
        let after = Set(model.items.keys), previous = Set(before.items.keys)
        expectChanges(changes, .inserted, after.subtracting(previous))
        expectChanges(changes, .deleted, previous.subtracting(after))
        expectChanges(changes, .modified, [Int64]())
        try expectBatchStore(store, matches: model, "\(order) second batch and deletes")

        // A third batch into the gaps the deletes left, in the same order.
        let refill = order.arrange(deletedIDs.map { BatchItem.make($0, version: 2) }, seed: 9)
        let refillCounts = try store.write { tx in try tx.add(contentsOf: refill) }
        #expect(refillCounts == WriteCounts(inserted: refill.count))
        model.apply(refill)
        try expectBatchStore(store, matches: model, "\(order) refill")
    }

    @Test(arguments: [UpdatePolicy.all, .modified], [1, 10])
    func theSameKeyRepeatedInOneBatchKeepsOnlyTheLastVersion(policy: UpdatePolicy, scale: Int) throws {
        let store = try Store.temporary(collections: [BatchItem.self])
        defer { store.close() }
        // Keys 50 (three different versions, first at the very start and last at the very end),
        // 60 (twice identical) and 70 (v0, then v1 twice), among 297 (or 2,997) other new records.
        // At scale 10 the batch is encoded on a second thread, and the copies sit in different chunks.
        let total = Int64(300 * scale)
        var batch = (1...total).filter { ![50, 60, 70].contains($0) }.map { BatchItem.make($0) }
        let placements: [(Int, BatchItem)] = [
            (0, .make(50)), (20, .make(60)), (30, .make(70)), (40, .make(70, version: 1)), (150, .make(50, version: 1)),
            (160, .make(60)), (250, .make(70, version: 1)),
        ]
        for (position, item) in placements { batch.insert(item, at: position * scale) }
        batch.append(.make(50, version: 2))
        var model = BatchModel()
        model.apply(batch)
        #expect(model.items[50] == .make(50, version: 2))
        // The versions of 50 all sit in different groups, so a stale entry would show in a query.
        #expect(Set([0, 1, 2].map { BatchItem.make(50, version: $0).group }).count == 3)

        let (counts, changes) = try store.write { tx in (try tx.add(contentsOf: batch, update: policy), tx.changes) }
        // Inserted once each; 50: two rewrites; 70: one rewrite, then an identical copy; 60: an identical copy.
        let identical = 2
        #expect(counts.inserted == Int(total))
        #expect(counts.modified == 3 + (policy == .all ? identical : 0))
        #expect(counts.unchanged == (policy == .modified ? identical : 0))
        expectChanges(changes, .inserted, 1...total)
        expectChanges(changes, .modified, [Int64]())
        try expectBatchStore(store, matches: model, "\(policy)")
        for version in [Int64(0), 1] {
            let stale = BatchItem.make(50, version: version)
            let got = try store.read { try $0.fetch(Query<BatchItem>().filter(BatchItem.byGroup, equals: stale.group)) }.map(\.id)
            #expect(!got.contains(50), "version \(version)'s group entry is gone")
            #expect(try store.read { try $0.fetch(Query<BatchItem>().filter(BatchItem.byCode, equals: stale.code)) }.isEmpty)
        }

        // The smallest batch: one key twice (then back to its first version) next to a stored record.
        let pair = [BatchItem.make(total + 600), BatchItem.make(total + 600, version: 1), BatchItem.make(total + 600)]
        let pairCounts = try store.write { tx in try tx.add(contentsOf: pair, update: policy) }
        #expect(pairCounts == WriteCounts(inserted: 1, modified: 2))
        model.apply(pair)
        try expectBatchStore(store, matches: model, "\(policy) pair")
    }

    @Test(arguments: BatchFailure.allCases, BatchShape.allCases)
    func aFailureMidBatchCaughtInTheTransactionKeepsExactlyTheRecordsBeforeIt(failure: BatchFailure, shape: BatchShape) throws {
        let order = shape.order
        let (store, stored) = try storeWithFiftyRecords()
        defer { store.close() }
        var model = BatchModel()
        model.apply(stored)

        var batch = order.arrange((1...shape.size).map { BatchItem.make($0) }, seed: 3)
        let k = shape.failingPosition
        batch[k] = failingRecord(failure, batch: batch, stored: stored)
        let extra = [BatchItem.make(7_001), .make(7_002), .make(7_003)]
        let single = BatchItem.make(20_000)
        let changes = try store.write { tx in
            let error = #expect(throws: StoreError.self) { try tx.add(contentsOf: batch) }
            #expect(error?.code == failure.code, "\(String(describing: error))")
            // Already consistent inside the transaction: the records before k, with their entries.
            var inside = model
            inside.apply(batch[..<k])
            try expectBatchReader(tx, matches: inside, "\(failure) \(order) after the caught error")
            // The transaction goes on: another batch (which must not inherit held-back entries) and one record.
            #expect(try tx.add(contentsOf: extra) == WriteCounts(inserted: 3))
            #expect(try tx.add(single) == .inserted)
            return tx.changes
        }
        model.apply(batch[..<k])
        model.apply(extra)
        model.apply([single])
        expectChanges(changes, .inserted, batch[..<k].map(\.id) + [7_001, 7_002, 7_003, 20_000])
        expectChanges(changes, .modified, [Int64]())
        expectChanges(changes, .deleted, [Int64]())
        try expectBatchStore(store, matches: model, "\(failure) \(order)")
        // The failing record left nothing: its key keeps the stored (or earlier) version, or is absent.
        let failing = batch[k]
        let storedVersion = try store.read { try $0.get(BatchItem.self, key: failing.id) }
        #expect(storedVersion == model.items[failing.id])
        #expect(storedVersion != failing)
    }

    @Test(arguments: BatchFailure.allCases, [BatchShape.smallAscending, .largeShuffled])
    func aFailureMidBatchThatEndsTheTransactionStoresNothing(failure: BatchFailure, shape: BatchShape) throws {
        let (store, stored) = try storeWithFiftyRecords()
        defer { store.close() }
        var model = BatchModel()
        model.apply(stored)
        let sequence = try store.read { try $0.lastChangeSequence() }

        var batch = shape.order.arrange((1...shape.size).map { BatchItem.make($0) }, seed: 5)
        batch[shape.failingPosition] = failingRecord(failure, batch: batch, stored: stored)
        let error = #expect(throws: StoreError.self) {
            try store.write { tx in
                try tx.add(BatchItem.make(5_555))
                try tx.add(contentsOf: batch)
            }
        }
        #expect(error?.code == failure.code)
        #expect(try store.read { try $0.lastChangeSequence() } == sequence)
        try expectBatchStore(store, matches: model, "\(failure) rolled back")
        // The next transaction starts clean.
        let good = (1...400).map { BatchItem.make($0) }
        try store.write { tx in try tx.add(contentsOf: good) }
        model.apply(good)
        try expectBatchStore(store, matches: model, "\(failure) next transaction")
    }

    @Test(arguments: [UpdatePolicy.modified, .all], BatchOrder.allCases)
    func reUpsertsWithMovedIndexValuesMixedWithNewRecords(policy: UpdatePolicy, order: BatchOrder) throws {
        let store = try Store.temporary(collections: [BatchItem.self])
        defer { store.close() }
        let stored = stride(from: Int64(2), through: 1_200, by: 2).map { BatchItem.make($0) }
        try store.write { tx in try tx.add(contentsOf: stored) }
        var model = BatchModel()
        model.apply(stored)

        var moved: [Int64] = [], payloadOnly: [Int64] = [], identical: [Int64] = []
        var batch: [BatchItem] = []
        for item in stored {
            if item.id % 3 == 0 {
                moved.append(item.id)
                batch.append(.make(item.id, version: 1))          // every index value changes
            } else if item.id % 5 == 0 {
                payloadOnly.append(item.id)
                batch.append(.make(item.id, payload: "changed"))  // bytes change, entries do not
            } else {
                identical.append(item.id)
                batch.append(item)
            }
        }
        let newIDs = Array(stride(from: Int64(1), through: 1_199, by: 2)) + Array(1_201...1_500)
        batch += newIDs.map { BatchItem.make($0) }
        batch = order.arrange(batch, seed: 11)

        let (counts, changes) = try store.write { tx in (try tx.add(contentsOf: batch, update: policy), tx.changes) }
        model.apply(batch)
        let rewritten = moved.count + payloadOnly.count
        #expect(counts.inserted == newIDs.count)
        #expect(counts.modified == rewritten + (policy == .all ? identical.count : 0))
        #expect(counts.unchanged == (policy == .modified ? identical.count : 0))
        expectChanges(changes, .inserted, newIDs)
        expectChanges(changes, .modified, moved + payloadOnly + (policy == .all ? identical : []))
        expectChanges(changes, .deleted, [Int64]())
        try expectBatchStore(store, matches: model, "\(policy) \(order)")
        // None of the moved records is still found under its old values.
        for id in moved.prefix(20) {
            let old = BatchItem.make(id)
            #expect(try store.read { try $0.fetch(Query<BatchItem>().filter(BatchItem.byCode, equals: old.code)) }.isEmpty)
            let sameRank = try store.read { try $0.fetch(Query<BatchItem>().filter(BatchItem.byRank, equals: old.rank)) }
            #expect(sameRank.allSatisfy { $0.id != id || $0.rank == old.rank })
        }
    }

    @Test func batchesSurviveReopeningTheStore() throws {
        let dir = TemporaryDirectory("batch-write")
        defer { dir.remove() }
        var model = BatchModel()
        do {
            let store = try Store.open(at: dir.path, collections: [BatchItem.self])
            let batch = BatchOrder.shuffled.arrange(stride(from: Int64(2), through: 3_000, by: 2).map { BatchItem.make($0) }, seed: 5)
            try store.write { tx in try tx.add(contentsOf: batch) }
            model.apply(batch)
            store.close()
        }
        do {
            let store = try Store.open(at: dir.path, collections: [BatchItem.self])
            try expectBatchStore(store, matches: model, "reopened once")
            // After reopening: new odd keys in descending order, mixed with moved stored records.
            let batch = BatchOrder.descending.arrange(stride(from: Int64(1), through: 3_001, by: 2).map { BatchItem.make($0) }
                + stride(from: Int64(4), through: 3_000, by: 4).map { BatchItem.make($0, version: 3) })
            let counts = try store.write { tx in try tx.add(contentsOf: batch, update: .modified) }
            #expect(counts == WriteCounts(inserted: 1_501, modified: 750))
            model.apply(batch)
            store.close()
        }
        let store = try Store.open(at: dir.path, collections: [BatchItem.self])
        defer { store.close() }
        try expectBatchStore(store, matches: model, "reopened twice")
    }

    @Test func aMapFullErrorMidBatchThatTheCallerSwallowsIsRetriedWhole() throws {
        // The map fills while the batch runs: LMDB marks the transaction failed, the batch's
        // catch tries to write its held-back entries into it (which fails too), and the caller
        // swallows whatever comes out. The environment must still retry the whole body, bigger.
        var configuration = StoreConfiguration()
        configuration.mapSize = 1 << 20
        let store = try Store.temporary(collections: [BatchItem.self], configuration: configuration)
        defer { store.close() }
        let batch = BatchOrder.shuffled.arrange((1...4_000).map { BatchItem.make($0, payload: String(repeating: "x", count: 200)) }, seed: 13)
        let extra = BatchItem.make(50_000)
        var attempts = 0, swallowed = 0
        try store.write { tx in
            attempts += 1
            do { try tx.add(contentsOf: batch) } catch { swallowed += 1 }
            _ = try? tx.add(extra)
        }
        #expect(attempts > 1, "the map never filled (\(attempts) attempt): the test does not exercise the retry")
        #expect(swallowed == attempts - 1)
        var model = BatchModel()
        model.apply(batch)
        model.apply([extra])
        try expectBatchStore(store, matches: model, "after growing the map")
    }

    @Test(.serialized, arguments: [1_000, 3_000])
    func aWriteStartedFromEncodeDuringABatchIsRefusedOnEitherThread(count: Int) throws {
        // At 3,000 records the batch is encoded on a second thread (and partly on this one), at
        // 1,000 on this thread only (the static probe is why the cases run one at a time);
        // a write from there must be refused as on the transaction's thread, not wait forever.
        let store = try Store.temporary(collections: [ReentrantItem.self])
        defer {
            ReentrantItem.probe.withLock { $0 = (nil, []) }
            store.close()
        }
        ReentrantItem.probe.withLock { $0 = (store, []) }
        let batch = (1...Int64(count)).map { ReentrantItem(id: $0, rank: $0 % 7) }
        try store.write { tx in try tx.add(contentsOf: batch) }
        let outcomes = ReentrantItem.probe.withLock { $0.outcomes }
        #expect(outcomes.count == count / 500)
        #expect(outcomes.allSatisfy { $0 == "nestedWrite" }, "\(outcomes)")
        #expect(try store.read { try $0.count(ReentrantItem.self) } == count)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func pendingEntriesComeOutInLMDBKeyOrder(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        // Keys with many shared prefixes, zero bytes (a key and its zero-padded extension tie on
        // the 16-byte prefix) and lengths on both sides of 16.
        let alphabet: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF]
        let base = (0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var keys = Set<[UInt8]>()
        while keys.count < 600 {
            let length = Int.random(in: 0...40, using: &rng)
            var key = Bool.random(using: &rng) ? Array(base.prefix(Int.random(in: 0...20, using: &rng))) : []
            while key.count < length { key.append(alphabet.randomElement(using: &rng)!) }
            keys.insert(key)
        }
        let sorted = keys.sorted { $0.lexicographicallyPrecedes($1) }
        // An entry's value is the end of its key (the primary key, in the store): here its last
        // `count % 9` bytes.
        let valueCount = { (key: [UInt8]) in min(key.count, key.count % 9) }
        let pending = PendingIndexEntries()
        let add = { (key: [UInt8]) in key.withUnsafeBytes { pending.append(key: $0, primaryKeyCount: valueCount(key)) } }
        for (label, input) in [("shuffled", sorted.shuffled(using: &rng)), ("ascending", sorted), ("descending", Array(sorted.reversed()))] {
            pending.expect(input.count)
            for key in input { add(key) }
            var seen: [[UInt8]] = []
            pending.forEachInKeyOrder { key, v in
                #expect(Array(v) == Array(Array(key).suffix(valueCount(Array(key)))), "\(label)")
                seen.append(Array(key))
            }
            expectSame(seen, sorted, "\(label)")
            #expect(pending.isEmpty)
        }
        // A throwing body still leaves nothing behind for the next batch.
        struct Stop: Error {}
        for key in sorted.prefix(10) { add(key) }
        #expect(throws: Stop.self) { try pending.forEachInKeyOrder { _, _ in throw Stop() } }
        #expect(pending.isEmpty)
        add([2])
        add([1])
        var order: [[UInt8]] = []
        pending.forEachInKeyOrder { key, _ in order.append(Array(key)) }
        #expect(order == [[1], [2]])
    }
}

/// A temporary store holding records 10,001–10,050 (the failure tests' stored records).
func storeWithFiftyRecords() throws -> (Store, [BatchItem]) {
    let store = try Store.temporary(collections: [BatchItem.self])
    let stored = (10_001...10_050).map { BatchItem.make($0) }
    try store.write { tx in try tx.add(contentsOf: stored) }
    return (store, stored)
}

/// The record placed at the failing position of a batch of ids 1...600.
func failingRecord(_ failure: BatchFailure, batch: [BatchItem], stored: [BatchItem]) -> BatchItem {
    switch failure {
    case .storedKey:
        return .make(stored[19].id, version: 1)
    case .keyEarlierInBatch:
        return .make(batch[17].id, version: 1)
    case .uniqueValueOfStoredRecord:
        var item = BatchItem.make(5_000)
        item.code = stored[3].code
        return item
    case .uniqueValueEarlierInBatch:
        var item = BatchItem.make(5_000)
        item.code = batch[42].code
        return item
    case .oversizedIndexEntry:
        var item = BatchItem.make(5_000)
        item.group = String(repeating: "x", count: 600)
        return item
    case .encodingFails:
        return .make(5_000, payload: BatchItem.unencodable)
    }
}

extension WriteCounts {
    init(inserted: Int = 0, modified: Int = 0, unchanged: Int = 0) {
        self.init()
        self.inserted = inserted
        self.modified = modified
        self.unchanged = unchanged
    }
}
