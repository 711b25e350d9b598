import Foundation
import Testing
import TweetieDB
import TweetieTestSupport

/// Queries through a record type's `TypedIndex` handles: each form finds what the same query by
/// index name finds (the plan is the same), a literal takes its component's type, and a handle
/// whose index the type does not list fails with the fix. What does not compile is
/// `TypedQueryTypeCheckTests`.
@Suite("Typed queries")
struct TypedQueryTests {
    static let monday = IndexNameQueryTests.monday

    /// An `Int` literal on an `Int32` index is an `Int32`: it finds the record (by name, the
    /// literal is an `Int` and the query throws).
    @Test func aLiteralTakesItsComponentsType() throws {
        let store = try IndexNameQueryTests.store()
        defer { store.close() }
        #expect(try store.read { try $0.fetch(Query<Reading>().filter(Reading.byLevel, equals: 7)) }.map(\.id) == [7])
        #expect(try store.read { try $0.fetch(Query<Reading>().filter(Reading.byLevel, from: 2, to: 4)) }.map(\.id) == [2, 3, 4])
    }

    /// Every typed form, beside the query by name it stands for.
    static let pairs: [(String, Query<Reading>, Query<Reading>)] = {
        let monday = TypedQueryTests.monday, noon = monday.addingTimeInterval(3 * 3600)
        return [
            ("equals 1", Query<Reading>().filter(Reading.bySensor, equals: "east"), Query<Reading>().filter(index: "sensor", equals: "east")),
            ("equals 2", Query<Reading>().filter(Reading.bySensor, equals: "west", noon), Query<Reading>().filter(index: "sensor", equals: "west", noon)),
            ("equals 3", Query<Reading>().filter(Reading.byPlace, equals: "east", 4, "r1"),
             Query<Reading>().filter(index: "place", equals: "east", Int32(4), "r1")),
            ("range", Query<Reading>().filter(Reading.byTaken, from: monday, to: noon, upperInclusive: false),
             Query<Reading>().filter(index: "taken", from: monday, to: noon, upperInclusive: false)),
            ("open range", Query<Reading>().filter(Reading.byTaken, from: noon, to: nil), Query<Reading>().filter(index: "taken", from: noon, to: nil)),
            ("equals 1, range", Query<Reading>().filter(Reading.bySensor, equals: "east", from: nil, to: noon),
             Query<Reading>().filter(index: "sensor", equals: "east", from: nil, to: noon)),
            ("equals 2, range", Query<Reading>().filter(Reading.byPlace, equals: "west", 3, from: "r0", to: "r9"),
             Query<Reading>().filter(index: "place", equals: "west", Int32(3), from: "r0", to: "r9")),
            ("prefix", Query<Reading>().filter(Reading.bySensor, prefix: "we"), Query<Reading>().filter(index: "sensor", prefix: "we")),
            ("equals 2, prefix", Query<Reading>().filter(Reading.byPlace, equals: "east", 6, prefix: "r"),
             Query<Reading>().filter(index: "place", equals: "east", Int32(6), prefix: "r")),
            ("sorted", Query<Reading>().sorted(by: Reading.byTaken), Query<Reading>().sorted(byIndex: "taken")),
            ("sorted, reversed", Query<Reading>().filter(Reading.bySensor, equals: "east").sorted(by: Reading.bySensor, .descending).limit(3),
             Query<Reading>().filter(index: "sensor", equals: "east").sorted(byIndex: "sensor", .descending).limit(3)),
            ("sorted by another", Query<Reading>().filter(Reading.bySensor, equals: "west").sorted(by: Reading.byLevel, .descending),
             Query<Reading>().filter(index: "sensor", equals: "west").sorted(byIndex: "level", .descending)),
        ]
    }()

    @Test(arguments: pairs.indices)
    func eachFormFindsWhatTheQueryByNameFinds(_ position: Int) throws {
        let (what, typed, named) = Self.pairs[position]
        let store = try IndexNameQueryTests.store()
        defer { store.close() }
        let (got, want) = try store.read { tx in (try tx.fetch(typed).map(\.id), try tx.fetch(named).map(\.id)) }
        #expect(got == want, "\(what)")
        #expect(!got.isEmpty, "\(what): found nothing, which proves nothing")
    }

    /// A handle whose index the record type does not list in `indexes`.
    struct Unlisted: Record, Identifiable {
        static let collectionName = "unlisted"
        static let byName = Index<Unlisted>.on("name", \.name)
        var id: Int64
        var name: String
    }

    @Test func aHandleOfAnIndexTheTypeDoesNotListFailsSayingSo() throws {
        let store = try Store.temporary(collections: [Unlisted.self])
        defer { store.close() }
        let error = #expect(throws: StoreError.self) { try store.read { try $0.fetch(Query<Unlisted>().filter(Unlisted.byName, equals: "a")) } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "collection 'unlisted' has no index named 'name' (it has none); a record type lists its indexes in 'indexes'",
                "\(error.map { "\($0)" } ?? "no error")")
    }
}
