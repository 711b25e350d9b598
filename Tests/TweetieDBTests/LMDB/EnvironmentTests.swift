import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

@Suite("LMDB environment")
struct EnvironmentTests {
    @Test func persistsAcrossCloseAndReopen() throws {
        let dir = TemporaryDirectory("reopen")
        defer { dir.remove() }
        do {
            let env = try Environment.open(at: dir.path)
            let db = try env.database(named: "things")
            try env.write { tx in
                for i in 0..<100 { try tx.put(bigEndian(UInt64(i)), bytes("value \(i)"), in: db) }
            }
            env.close()
            #expect(env.isClosed)
            #expect(throws: StoreError.self) { try env.read { _ in 1 } }
        }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "things", create: false)
        let count = try env.read { tx in try tx.stats(of: db).entries }
        #expect(count == 100)
        let value = try env.read { tx in try tx.value(for: bigEndian(42), in: db) }
        #expect(value == bytes("value 42"))
    }

    @Test func openingTheSamePathTwiceReturnsTheSameEnvironment() throws {
        let dir = TemporaryDirectory("twice")
        defer { dir.remove() }
        let first = try Environment.open(at: dir.path)
        defer { first.close() }
        let second = try Environment.open(at: dir.path + "/")
        #expect(first === second)
        var other = Configuration()
        other.durability = .noSync
        let error = #expect(throws: StoreError.self) { try Environment.open(at: dir.path, configuration: other) }
        #expect(error?.code == .alreadyOpen)
    }

    @Test func readTransactionSeesASnapshot() throws {
        let dir = TemporaryDirectory("snapshot")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        try env.write { tx in try tx.put(bytes("a"), bytes("1"), in: db) }
        try env.read { (old: ReadTransaction) throws in
            // A write committed while `old` is open, from another thread.
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                try! env.write { tx in try tx.put(bytes("a"), bytes("2"), in: db) }
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(try old.value(for: bytes("a"), in: db) == bytes("1"))
        }
        #expect(try env.read { try $0.value(for: bytes("a"), in: db) } == bytes("2"))
    }

    @Test func throwingWriteLeavesNothingBehind() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory("abort")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        #expect(throws: Boom.self) {
            try env.write { tx in
                try tx.put(bytes("x"), bytes("1"), in: db)
                throw Boom()
            }
        }
        #expect(try env.read { try $0.contains(bytes("x"), in: db) } == false)
    }

    @Test func usingATransactionAfterItsClosureThrows() throws {
        let dir = TemporaryDirectory("escape")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let escaped = try env.read { $0 }
        let error = #expect(throws: StoreError.self) { try escaped.value(for: bytes("a"), in: db) }
        #expect(error?.code == .transactionEnded)
    }

    @Test func nestedWriteIsRefused() throws {
        let dir = TemporaryDirectory("nested")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let error = #expect(throws: StoreError.self) {
            try env.write { _ in try env.write { tx in try tx.put(bytes("a"), bytes("b"), in: db) } }
        }
        #expect(error?.code == .nestedWrite)
    }

    @Test func mapGrowsFromOneMebibyteToSixtyFourMebibytesOfData() throws {
        let dir = TemporaryDirectory("grow")
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.mapSize = 1 << 20
        configuration.durability = .noSync
        let env = try Environment.open(at: dir.path, configuration: configuration)
        defer { env.close() }
        let db = try env.database(named: "blobs")
        let value = [UInt8](repeating: 0xAB, count: 4000)
        // 64 MiB of values in 16 transactions of 4 MiB each.
        for batch in 0..<16 {
            try env.write { tx in
                for i in 0..<1024 { try tx.put(bigEndian(UInt64(batch * 1024 + i)), value, in: db) }
            }
        }
        let entries = try env.read { try $0.stats(of: db).entries }
        #expect(entries == 16 * 1024)
        #expect(env.info().mapSize >= 64 << 20)
        #expect(try env.read { try $0.value(for: bigEndian(16_000), in: db) } == value)
    }

    @Test func mapFullAtTheMaximumIsAClearError() throws {
        let dir = TemporaryDirectory("max")
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.mapSize = 1 << 20
        configuration.maximumMapSize = 2 << 20
        let env = try Environment.open(at: dir.path, configuration: configuration)
        defer { env.close() }
        let db = try env.database(named: "blobs")
        let value = [UInt8](repeating: 1, count: 8000)
        let error = #expect(throws: StoreError.self) {
            try env.write { tx in for i in 0..<1000 { try tx.put(bigEndian(UInt64(i)), value, in: db) } }
        }
        #expect(error?.code == .mapFull)
        #expect(error?.message.contains("maximum") == true)
        #expect(try env.read { try $0.stats(of: db).entries } == 0)
    }

    @Test func oversizedKeyMapsToTheKeySizeError() throws {
        let dir = TemporaryDirectory("keysize")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let error = #expect(throws: StoreError.self) {
            try env.write { tx in try tx.put([UInt8](repeating: 7, count: 512), bytes("v"), in: db) }
        }
        #expect(error?.code == .badValueSize)
        #expect(error?.operation == "mdb_put")
        #expect(error?.database == "kv")
        #expect(error?.description.contains("MDB_BAD_VALSIZE") == true)
        // 511 bytes is still fine.
        try env.write { tx in try tx.put([UInt8](repeating: 7, count: 511), bytes("v"), in: db) }
    }

    @Test func compactedCopyOpensWithTheSameRecords() throws {
        let dir = TemporaryDirectory("copy")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.sub("source"))
        defer { env.close() }
        let db = try env.database(named: "kv")
        try env.write { tx in for i in 0..<2000 { try tx.put(bigEndian(UInt64(i)), bytes("v\(i)"), in: db) } }
        try env.write { tx in for i in 0..<1000 { try tx.delete(bigEndian(UInt64(i)), in: db) } }
        try env.copy(to: dir.sub("backup"))
        #expect(throws: StoreError.self) { try env.copy(to: dir.sub("backup")) }
        let copy = try Environment.open(at: dir.sub("backup"))
        defer { copy.close() }
        let copied = try copy.database(named: "kv", create: false)
        var keys: [[UInt8]] = []
        try copy.read { tx in
            try tx.forEach(in: copied) { key, value in
                keys.append(Array(key))
                #expect(Array(value) == bytes("v\(Int(key.loadUnaligned(as: UInt64.self).bigEndian))"))
                return true
            }
        }
        #expect(keys == (1000..<2000).map { bigEndian(UInt64($0)) })
    }

    @Test func writesFromManyConcurrentTasksAllLand() async throws {
        let dir = TemporaryDirectory("concurrent")
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.durability = .noSync
        let env = try Environment.open(at: dir.path, configuration: configuration)
        defer { env.close() }
        let db = try env.database(named: "kv")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for i in 0..<25 {
                        try await env.write { tx in try tx.put(bigEndian(UInt64(task * 1000 + i)), bytes("\(task)"), in: db) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try env.read { try $0.stats(of: db).entries } == 32 * 25)
    }

    @Test func cursorsIterateOrderedReversedRangedAndPrefixed() throws {
        let dir = TemporaryDirectory("cursor")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let words = ["apple", "apricot", "banana", "blueberry", "cherry", "ap", "b"]
        try env.write { tx in for w in words { try tx.put(bytes(w), [], in: db) } }
        func collect(_ range: KeyRange, reverse: Bool = false) throws -> [String] {
            var out: [String] = []
            try env.read { tx in
                try tx.forEach(in: db, range: range, reverse: reverse) { key, _ in
                    out.append(String(decoding: key, as: UTF8.self)); return true
                }
            }
            return out
        }
        #expect(try collect(.all) == words.sorted())
        #expect(try collect(.all, reverse: true) == Array(words.sorted().reversed()))
        #expect(try collect(.prefix(bytes("ap"))) == ["ap", "apple", "apricot"])
        #expect(try collect(.prefix(bytes("ap")), reverse: true) == ["apricot", "apple", "ap"])
        #expect(try collect(.between(bytes("apz"), bytes("c"))) == ["b", "banana", "blueberry"])
        #expect(try collect(.closed(bytes("b"), bytes("banana")), reverse: true) == ["banana", "b"])
        #expect(try collect(.prefix(bytes("zzz"))) == [])
        #expect(KeyRange.successor(ofPrefix: [0x01, 0xFF]) == [0x02])
        #expect(KeyRange.successor(ofPrefix: [0xFF]) == nil)
    }

    @Test func invalidConfigurationAndPathsGetClearErrors() throws {
        let dir = TemporaryDirectory("invalid")
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.mapSize = 0
        let e1 = #expect(throws: StoreError.self) { try Environment.open(at: dir.path, configuration: configuration) }
        #expect(e1?.code == .invalidArgument)
        _ = FileManager.default.createFile(atPath: dir.sub("file"), contents: Data("x".utf8))
        let e2 = #expect(throws: StoreError.self) { try Environment.open(at: dir.sub("file")) }
        #expect(e2?.code == .notADatabase)
        // A directory whose data.mdb is garbage.
        try FileManager.default.createDirectory(atPath: dir.sub("garbage"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.sub("garbage/data.mdb"), contents: Data(repeating: 0x5A, count: 16384))
        let e3 = #expect(throws: StoreError.self) { try Environment.open(at: dir.sub("garbage")) }
        #expect(e3?.code == .notADatabase)
        let after = try Data(contentsOf: URL(fileURLWithPath: dir.sub("garbage/data.mdb")))
        #expect(after == Data(repeating: 0x5A, count: 16384))
    }

    @Test func infoAndStatsReportActivity() throws {
        let dir = TemporaryDirectory("info")
        defer { dir.remove() }
        let env = try Environment.open(at: dir.path)
        defer { env.close() }
        let db = try env.database(named: "kv")
        let before = env.lastTransactionID
        try env.write { tx in try tx.put(bytes("k"), bytes("v"), in: db) }
        #expect(env.lastTransactionID == before + 1)
        let info = env.info()
        #expect(info.mapSize == 64 << 20)
        #expect(info.pageSize > 0)
        #expect(info.maxReaders == 1024)
        let stats = try env.read { try $0.stats(of: db) }
        #expect(stats.entries == 1 && stats.leafPages == 1)
    }
}
