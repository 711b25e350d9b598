import Foundation
import Testing
import TweetieDB
import TweetieTestSupport

/// A record with an `Int32`, a `Date`, a compound `String`, `Date` and a `String`, `Int32`, `String`
/// index: the component types a query has to match.
struct Reading: Record, Identifiable, Hashable {
    static let collectionName = "readings"
    static let byLevel = Index<Reading>.on("level", \.level)
    static let byTaken = Index<Reading>.on("taken", order: .descending, \.taken)
    static let bySensor = Index<Reading>.on("sensor", \.sensor).then(order: .descending, \.taken)
    /// Three components: what the typed forms fix at most (two equal values, then a range or prefix).
    static let byPlace = Index<Reading>.on("place", \.sensor).then(\.level).then(\.label)
    static let indexes = [byLevel.index, byTaken.index, bySensor.index, byPlace.index]
    var id: Int64
    var level: Int32
    var taken: Date
    var sensor: String
    var label = ""
}

/// A query that names its index by a string (an index name known only at run time) checks each
/// value against the type of its component when it runs: a value of another type encodes to
/// bytes no entry has, and used to find nothing, silently.
@Suite("Queries by index name")
struct IndexNameQueryTests {
    static let monday = Date(timeIntervalSince1970: 1_544_400_000)

    static func store() throws -> Store {
        let store = try Store.temporary(collections: [Reading.self])
        try store.write { tx in
            for i in 0..<10 {
                try tx.add(Reading(id: Int64(i), level: Int32(i), taken: monday.addingTimeInterval(Double(i) * 3600),
                                   sensor: i.isMultiple(of: 2) ? "east" : "west", label: "r\(i % 3)"))
            }
        }
        return store
    }

    /// Each wrong value, and what the error must say: the index, the expected type, the given one.
    static let mismatches: [(String, Query<Reading>, String)] = [
        ("an Int on an Int32 index", Query<Reading>().filter(index: "level", equals: 7),
         "index 'level' takes Int32 for its component 1 of 1, but the query gives Int (7)"),
        ("an Int range on a Date index", Query<Reading>().filter(index: "taken", from: 0, to: 100),
         "index 'taken' takes Date for its component 1 of 1, but the query gives Int (0)"),
        ("an Int upper bound alone", Query<Reading>().filter(index: "taken", from: nil, to: 100),
         "index 'taken' takes Date for its component 1 of 1, but the query gives Int (100)"),
        ("a String on a Date index", Query<Reading>().filter(index: "taken", equals: "monday"),
         "index 'taken' takes Date for its component 1 of 1, but the query gives String (\"monday\")"),
        ("an Int on a String index", Query<Reading>().filter(index: "sensor", equals: 7),
         "index 'sensor' takes String for its component 1 of 2, but the query gives Int (7)"),
        ("an Int for the second component", Query<Reading>().filter(index: "sensor", equals: "east", 7),
         "index 'sensor' takes Date for its component 2 of 2, but the query gives Int (7)"),
        ("an Int range after the equal value", Query<Reading>().filter(index: "sensor", equals: "east", from: 1, to: 2),
         "index 'sensor' takes Date for its component 2 of 2, but the query gives Int (1)"),
        ("a prefix on a Date component", Query<Reading>().filter(index: "taken", prefix: "2018"),
         "index 'taken' takes Date for its component 1 of 1; a prefix applies only to a String component"),
        ("a prefix after the equal value", Query<Reading>().filter(index: "sensor", equals: "east", prefix: "2018"),
         "index 'sensor' takes Date for its component 2 of 2; a prefix applies only to a String component"),
    ]

    @Test(arguments: mismatches.indices)
    func aValueOfAnotherTypeThrowsNamingTheIndexAndBothTypes(_ position: Int) throws {
        let (what, query, message) = Self.mismatches[position]
        let store = try Self.store()
        defer { store.close() }
        for run in [{ try store.read { tx in _ = try tx.fetch(query) } },
                    { try store.read { tx in _ = try tx.fetchCount(query) } }] {
            let error = #expect(throws: StoreError.self, "\(what)") { try run() }
            #expect(error?.code == .invalidArgument, "\(what)")
            let description = error.map { "\($0)" } ?? "no error"
            #expect(description.hasPrefix("query on 'readings#") && description.contains(message), "\(what): \(description)")
        }
        // Nothing was written or lost: the records are all there.
        #expect(try store.read { try $0.count(Reading.self) } == 10)
    }

    /// The same queries with values of the components' types find what they should.
    @Test func valuesOfTheComponentsTypesFind() throws {
        let store = try Self.store()
        defer { store.close() }
        let monday = Self.monday
        func ids(_ query: Query<Reading>) throws -> [Int64] { try store.read { try $0.fetch(query) }.map(\.id) }
        #expect(try ids(Query<Reading>().filter(index: "level", equals: Int32(7))) == [7])
        #expect(try ids(Query<Reading>().filter(index: "taken", from: monday, to: monday + 2 * 3600)) == [0, 1, 2])
        #expect(try ids(Query<Reading>().filter(index: "sensor", equals: "east")) == [0, 2, 4, 6, 8])
        #expect(try ids(Query<Reading>().filter(index: "sensor", equals: "west", monday + 3600)) == [1])
        #expect(try ids(Query<Reading>().filter(index: "sensor", prefix: "ea")).count == 5)
    }
}
