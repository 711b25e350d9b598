import Foundation
import Synchronization
import Testing
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

/// Group commit: async writes queued while the writer thread is busy share one commit, and behave
/// as if they had run one after another.
@Suite("Group commit")
struct GroupCommitTests {
    /// The counter every test write reads and bumps, so each body shows which writes it saw.
    static let counterKey = bytes("counter")

    /// Reads the counter, stores `counter + 1` and `order/<counter>` = `writer`; returns what it read.
    static func bump(_ tx: WriteTransaction, writer: Int, in db: Database) throws -> Int {
        let seen = try tx.value(for: counterKey, in: db).map { Int(String(decoding: $0, as: UTF8.self))! } ?? 0
        try tx.put(counterKey, bytes("\(seen + 1)"), in: db)
        try tx.put(bytes("order/\(seen)"), bytes("\(writer)"), in: db)
        return seen
    }

    /// Holds the writer thread inside a write, queues one write per body in this order (each queued
    /// before the next is started), then lets the thread go: the queued writes form one group.
    /// Returns each write's outcome, in queue order.
    static func queuedTogether<T: Sendable>(on env: Environment,
                                            _ bodies: [@Sendable (WriteTransaction) throws -> T]) async throws -> [Result<T, any Error>] {
        try await queuedTogether(on: env, bodies.map { body in { try await env.write(body) } })
    }

    /// The same for any async writes that queue on `env`'s writer thread (such as `Store.write`):
    /// each of `writes` must queue exactly one.
    static func queuedTogether<T: Sendable>(on env: Environment, _ writes: [@Sendable () async throws -> T]) async throws -> [Result<T, any Error>] {
        let held = Atomic<Bool>(false), release = Atomic<Bool>(false)
        let gate = Task {
            try await env.write { _ in
                held.store(true, ordering: .sequentiallyConsistent)
                while !release.load(ordering: .sequentiallyConsistent) { usleep(200) }
            }
        }
        try await waitUntil("the gate write holds the writer thread") { held.load(ordering: .sequentiallyConsistent) }
        var tasks: [Task<T, any Error>] = []
        for (index, write) in writes.enumerated() {
            tasks.append(Task { try await write() })
            try await waitUntil("write \(index) is queued") { env.writerThread.queuedCount == index + 1 }
        }
        release.store(true, ordering: .sequentiallyConsistent)
        try await gate.value
        var outcomes: [Result<T, any Error>] = []
        for task in tasks { outcomes.append(await task.result) }
        return outcomes
    }

    static func waitUntil(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        try await withTimeout(what) {
            while !condition() { try await Task.sleep(nanoseconds: 500_000) }
        }
    }

    static func open(_ dir: TemporaryDirectory, mapSize: Int = 1 << 30) throws -> (Environment, Database) {
        var configuration = Configuration()
        configuration.mapSize = mapSize
        let env = try Environment.open(at: dir.path, configuration: configuration)
        return (env, try env.database(named: "kv"))
    }

    @Test func queuedWritesCommitOnceInQueueOrder() async throws {
        let dir = TemporaryDirectory("group-order")
        defer { dir.remove() }
        let (env, db) = try Self.open(dir)
        defer { env.close() }
        let before = try env.read { $0.id }
        let outcomes = try await Self.queuedTogether(on: env, (0..<8).map { writer in { tx in try Self.bump(tx, writer: writer, in: db) } })
        // Each body saw the ones queued before it, and the eight share one transaction (the gate's
        // empty write commits nothing).
        #expect(try outcomes.map { try $0.get() } == Array(0..<8))
        #expect(try env.read { $0.id } == before + 1)
        let order = try env.read { tx in try (0..<8).map { try tx.value(for: bytes("order/\($0)"), in: db).map { String(decoding: $0, as: UTF8.self) } } }
        #expect(order == (0..<8).map { "\($0)" })
    }

    @Test func aBodyThatThrowsInTheMiddleLosesOnlyItsOwnWork() async throws {
        struct Refused: Error, Equatable {}
        let dir = TemporaryDirectory("group-throw")
        defer { dir.remove() }
        let (env, db) = try Self.open(dir)
        defer { env.close() }
        let bodies: [@Sendable (WriteTransaction) throws -> Int] = (0..<5).map { writer in
            { tx in
                let seen = try Self.bump(tx, writer: writer, in: db)
                try tx.put(bytes("mine/\(writer)"), bytes("x"), in: db)
                if writer == 2 { throw Refused() }
                return seen
            }
        }
        let outcomes = try await Self.queuedTogether(on: env, bodies)
        #expect(throws: Refused.self) { try outcomes[2].get() }
        // The writes after the one that threw did not see its work; none of it was committed.
        #expect(try [0, 1, 3, 4].map { try outcomes[$0].get() } == [0, 1, 2, 3])
        let (counter, order, mine) = try env.read { tx in
            (try tx.value(for: Self.counterKey, in: db), try (0..<4).map { try tx.value(for: bytes("order/\($0)"), in: db) },
             try (0..<5).map { try tx.value(for: bytes("mine/\($0)"), in: db) })
        }
        #expect(counter == bytes("4"))
        #expect(order == ["0", "1", "3", "4"].map { Optional(bytes($0)) })
        #expect(mine == [bytes("x"), bytes("x"), nil, bytes("x"), bytes("x")])
    }

    @Test func aGroupThatFillsTheMapGrowsItAndRunsEveryBodyAgain() async throws {
        let dir = TemporaryDirectory("group-grow")
        defer { dir.remove() }
        let (env, db) = try Self.open(dir, mapSize: 1 << 20)
        defer { env.close() }
        let runs = Atomic<Int>(0)
        // Six writes of 256 KiB each: together (1.5 MiB) they cannot fit in the 1 MiB map.
        let bodies: [@Sendable (WriteTransaction) throws -> Int] = (0..<6).map { writer in
            { tx in
                runs.add(1, ordering: .relaxed)
                let seen = try Self.bump(tx, writer: writer, in: db)
                try tx.put(bytes("big/\(writer)"), [UInt8](repeating: UInt8(writer), count: 256 << 10), in: db)
                return seen
            }
        }
        let outcomes = try await Self.queuedTogether(on: env, bodies)
        #expect(try outcomes.map { try $0.get() } == Array(0..<6))
        #expect(env.info().mapSize > 1 << 20)
        #expect(runs.load(ordering: .relaxed) > 6, "the group ran again after the map grew")
        let (counter, big) = try env.read { tx in
            (try tx.value(for: Self.counterKey, in: db), try (0..<6).map { try tx.value(for: bytes("big/\($0)"), in: db) })
        }
        #expect(counter == bytes("6"))
        #expect(big == (0..<6).map { [UInt8](repeating: UInt8($0), count: 256 << 10) })
    }

    @Test func aWriteAloneStillCommitsAndAnswers() async throws {
        let dir = TemporaryDirectory("group-alone")
        defer { dir.remove() }
        let (env, db) = try Self.open(dir)
        defer { env.close() }
        let before = try env.read { $0.id }
        #expect(try await env.write { tx in try Self.bump(tx, writer: 7, in: db) } == 0)
        #expect(try await env.write { tx in try Self.bump(tx, writer: 8, in: db) } == 1)
        #expect(try env.read { $0.id } == before + 2)
    }
}
