import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// A record with only non-unique indexes: a large batch of them takes the writer's direct path
/// (keys and entries put from the encoded chunk as they are), and its held-back entries are
/// sorted on a helper thread while the other index is written. `rank` descends as ids ascend
/// (the entries arrive in order), `group` hops between eight groups (they arrive unordered).
struct DirectItem: Record, Codable, Identifiable, Hashable {
    static let collectionName = "direct_items"
    static let byRank = Index<DirectItem>.on("rank", order: .descending, \.rank)
    static let byGroup = Index<DirectItem>.on("group", \.group).then(\.rank)
    static let indexes = [byRank.index, byGroup.index]
    var id: Int64
    var rank: Int64
    var group: String

    static func make(_ id: Int64, shift: Int64 = 0, group: String? = nil) -> DirectItem {
        DirectItem(id: id, rank: id * 3 + shift, group: group ?? "g\(id * 7 % 8)")
    }
}

/// The expected contents of `direct_items`, with both index orders worked out from the fields.
struct DirectModel {
    var items: [Int64: DirectItem] = [:]

    mutating func apply(_ records: some Sequence<DirectItem>) {
        for record in records { items[record.id] = record }
    }

    /// Ids in `rank` index order (rank descending, then id ascending).
    var byRank: [Int64] {
        items.values.sorted { ($0.rank, $1.id) > ($1.rank, $0.id) }.map(\.id)
    }

    /// Ids in `group` index order (group's bytes, then rank, then id).
    var byGroup: [Int64] {
        items.values.sorted {
            let a = Array($0.group.utf8), b = Array($1.group.utf8)
            if a != b { return a.lexicographicallyPrecedes(b) }
            return ($0.rank, $0.id) < ($1.rank, $1.id)
        }.map(\.id)
    }

    /// Checks the records and both indexes against `tx`.
    func check(_ tx: some StoreReading, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let records = try tx.fetch(Query<DirectItem>().sorted(byPrimaryKey: .ascending))
        expectSame(records, items.values.sorted { $0.id < $1.id }, "\(label): records", sourceLocation: sourceLocation)
        expectSame(try tx.fetch(Query<DirectItem>().sorted(by: DirectItem.byRank)).map(\.id), byRank, "\(label): rank", sourceLocation: sourceLocation)
        expectSame(try tx.fetch(Query<DirectItem>().sorted(by: DirectItem.byGroup)).map(\.id), byGroup, "\(label): group", sourceLocation: sourceLocation)
    }
}

@Suite("Batch writes without unique indexes: the direct path and the helper sort")
struct DirectBatchWriteTests {
    @Test(arguments: [BatchOrderForDirect.ascending, .shuffled], [3_000, 20_000])
    func aLargeBatchIntoAnEmptyStoreWritesBothIndexesInOrder(order: BatchOrderForDirect, count: Int) throws {
        // 20,000 entries per index are over `sideSortMinimum`: the group index is sorted on the
        // helper thread (when the rank entries arrive in order) while the rank index is written.
        #expect(count < PendingIndexEntries.sideSortMinimum || count >= PendingIndexEntries.sideSortMinimum + 1_000)
        let store = try Store.temporary(collections: [DirectItem.self])
        defer { store.close() }
        let batch = order.arrange((1...Int64(count)).map { DirectItem.make($0) })
        var model = DirectModel()
        model.apply(batch)
        let (counts, changes) = try store.write { tx in
            let counts = try tx.add(contentsOf: batch, update: .all)
            try model.check(tx, "\(order) \(count) inside the transaction")
            return (counts, tx.changes)
        }
        #expect(counts == WriteCounts(inserted: count))
        let inserted = changes.keys(of: DirectItem.collectionName, kind: .inserted)
        let missing = Set((1...Int64(count)).map { DirectItem.encode(primaryKey: $0) }).symmetricDifference(inserted)
        #expect(inserted.count == count && missing.isEmpty, "\(inserted.count) inserted keys reported, \(missing.count) differ")
        try store.read { try model.check($0, "\(order) \(count)") }
    }

    @Test(arguments: [UpdatePolicy.all, .modified])
    func storedKeysInALargeBatchAreReplacedWithTheirEntries(policy: UpdatePolicy) throws {
        // Ids 1...3,000 are stored; the batch brings 1...6,000 in shuffled order: a third of the
        // stored ones unchanged, the rest with moved rank and group, and 3,000 new records.
        let store = try Store.temporary(collections: [DirectItem.self])
        defer { store.close() }
        let stored = (1...Int64(3_000)).map { DirectItem.make($0) }
        try store.write { tx in try tx.add(contentsOf: stored) }
        let batch = BatchOrderForDirect.shuffled.arrange((1...Int64(6_000)).map { id in
            id <= 3_000 && id % 3 == 0 ? DirectItem.make(id) : DirectItem.make(id, shift: 1, group: "h\(id % 5)")
        })
        var model = DirectModel()
        model.apply(stored)
        model.apply(batch)
        let (counts, changes) = try store.write { tx in
            (try tx.add(contentsOf: batch, update: policy), tx.changes)
        }
        let unchanged = 1_000
        #expect(counts == WriteCounts(inserted: 3_000, modified: policy == .all ? 2_000 + unchanged : 2_000,
                                      unchanged: policy == .all ? 0 : unchanged))
        #expect(changes.keys(of: DirectItem.collectionName, kind: .inserted).count == 3_000)
        try store.read { try model.check($0, "\(policy)") }
    }

    @Test func anExistingKeyUnderErrorStopsTheBatchAfterTheRecordsBeforeIt() throws {
        let store = try Store.temporary(collections: [DirectItem.self])
        defer { store.close() }
        try store.write { tx in try tx.add(DirectItem.make(2_500)) }
        let batch = (1...Int64(4_000)).map { DirectItem.make($0, shift: 2) }
        var model = DirectModel()
        model.apply([DirectItem.make(2_500)])
        model.apply(batch[..<2_499])
        try store.write { tx in
            let error = #expect(throws: StoreError.self) { try tx.add(contentsOf: batch, update: .error) }
            #expect(error?.code == .constraintViolation)
            try model.check(tx, "after the caught error")
        }
        try store.read { try model.check($0, "committed") }
    }

    @Test func anOversizedIndexEntryMidBatchIsRefusedWithTheGeneralPathsError() throws {
        let store = try Store.temporary(collections: [DirectItem.self])
        defer { store.close() }
        var batch = (1...Int64(3_000)).map { DirectItem.make($0) }
        batch[2_100].group = String(repeating: "x", count: 600)
        var model = DirectModel()
        model.apply(batch[..<2_100])
        try store.write { tx in
            let error = #expect(throws: StoreError.self) { try tx.add(contentsOf: batch) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("index entry") == true, "\(String(describing: error))")
            try model.check(tx, "after the caught error")
        }
        try store.read { try model.check($0, "committed") }
    }

    /// An add and a batch (whose records are encoded on the helper) check a primary key's size
    /// in one place: the same sentence, and nothing of the failed write is left.
    @Test func anOversizedPrimaryKeyAloneOrMidBatchIsRefusedWithOneSentence() throws {
        let store = try Store.temporary(collections: [Member.self])
        defer { store.close() }
        let long = String(repeating: "k", count: 600)
        var batch = (0..<3_000).map { Member(id: "m\($0)", handle: "h\($0)", name: "n") }
        batch[2_100].id = long
        for records in [[Member(id: long, handle: "alone", name: "n")], batch] {
            let error = #expect(throws: StoreError.self) { try store.write { tx in try tx.add(contentsOf: records) } }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("encodes to 602 bytes; keys are limited to 511") == true, "\(String(describing: error))")
            #expect(try store.read { try $0.count(Member.self) } == 0)
        }
        let single = #expect(throws: StoreError.self) { try store.write { tx in try tx.add(Member(id: long, handle: "one", name: "n")) } }
        #expect(single?.message.contains("encodes to 602 bytes") == true, "\(String(describing: single))")
    }

    @Test func sortingOnTheHelperGivesTheSameOrderAsSortingInPlace() throws {
        var rng = SeededRandom(seed: 5)
        let keys = (0..<Int64(20_000)).map { _ -> [UInt8] in
            var encoder = KeyEncoder()
            encoder.append("g\(Int.random(in: 0..<40, using: &rng))")
            encoder.append(Int64.random(in: 0..<1_000_000, using: &rng))
            return encoder.bytes
        }
        func pending() -> PendingIndexEntries {
            let entries = PendingIndexEntries()
            for key in keys { key.withUnsafeBytes { entries.append(key: $0, primaryKeyCount: 8) } }
            return entries
        }
        var inPlace: [[UInt8]] = []
        pending().forEachInKeyOrder { key, _ in inPlace.append(Array(key)) }
        let sorted = pending()
        #expect(sorted.needsSort())
        let helper = SideThread(name: "test sort") { sorted.sortIntoKeyOrder() }
        helper.wait()
        helper.wait()
        var viaHelper: [[UInt8]] = []
        sorted.forEachInKeyOrder { key, _ in viaHelper.append(Array(key)) }
        #expect(viaHelper == inPlace)
        #expect(inPlace == keys.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(sorted.isEmpty && !sorted.needsSort())
    }
}

/// The order a direct batch's records are given in.
enum BatchOrderForDirect: String, CaseIterable, Sendable {
    case ascending, shuffled

    func arrange(_ records: [DirectItem]) -> [DirectItem] {
        guard self == .shuffled else { return records }
        var rng = SeededRandom(seed: 21)
        return records.shuffled(using: &rng)
    }
}
