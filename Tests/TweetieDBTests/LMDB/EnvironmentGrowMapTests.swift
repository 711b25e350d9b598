import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("Growing the map ahead")
struct EnvironmentGrowMapTests {
    static func open(_ dir: TemporaryDirectory, maximum: Int = 1 << 40) throws -> Environment {
        var configuration = Configuration()
        configuration.mapSize = 1 << 20
        configuration.maximumMapSize = maximum
        configuration.durability = .noSync
        return try Environment.open(at: dir.path, configuration: configuration)
    }

    @Test func growsToWholePagesNeverShrinksAndStopsAtTheMaximum() throws {
        let dir = TemporaryDirectory("grow-ahead")
        defer { dir.remove() }
        let env = try Self.open(dir, maximum: 8 << 20)
        defer { env.close() }
        let page = env.info().pageSize
        try env.growMap(toAtLeast: (3 << 20) + 1)
        #expect(env.info().mapSize == (3 << 20) + page)
        try env.growMap(toAtLeast: 2 << 20)
        #expect(env.info().mapSize == (3 << 20) + page, "a smaller size must not shrink the map")
        try env.growMap(toAtLeast: .max)
        #expect(env.info().mapSize == 8 << 20)
        // A write of 6 MiB now runs once: no MDB_MAP_FULL on the way.
        let db = try env.database(named: "blobs")
        var runs = 0
        try env.write { tx in
            runs += 1
            for i in 0..<1_500 { try tx.put(bigEndian(UInt64(i)), [UInt8](repeating: 7, count: 4000), in: db) }
        }
        #expect(runs == 1)
    }

    @Test func insideATransactionItIsRefused() throws {
        let dir = TemporaryDirectory("grow-inside")
        defer { dir.remove() }
        let env = try Self.open(dir)
        defer { env.close() }
        let error = #expect(throws: StoreError.self) { try env.read { _ in try env.growMap(toAtLeast: 4 << 20) } }
        #expect(error?.code == .mapFull)
        #expect(env.info().mapSize == 1 << 20)
    }
}
