import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
import TweetieTestSupport

/// Opening a store that exists, with nothing to change, is a reader: it must not wait for a
/// writer that holds its write transaction (readers never wait for a writer). Only an open with
/// something to write — a new collection, a changed index, a migration — takes the write lock.
@Suite("Opening while another thread writes")
struct OpenWhileWritingTests {
    /// Runs `body` on a thread of its own; returns whether it finished within `seconds`.
    static func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test func anOpenWithNothingToWriteDoesNotWaitForAWriter() throws {
        let dir = TemporaryDirectory("open-while-writing")
        defer { dir.remove() }
        let first = try Store.open(at: dir.path, collections: [Post.self, Member.self])
        defer { first.close() }
        try first.write { tx in try tx.add(Post(id: 1, author: "ann", text: "hi", created: Date(), likes: 0)) }

        let inside = DispatchSemaphore(value: 0), leave = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        Thread {
            _ = try? first.write { _ in inside.signal(); leave.wait() }
            writerDone.signal()
        }.start()
        inside.wait()

        let opened = Self.finishes(within: 30) {
            guard let second = try? Store.open(at: dir.path, collections: [Post.self, Member.self]) else { return }
            _ = try? second.read { try $0.count(Post.self) }
        }
        leave.signal()
        writerDone.wait()
        #expect(opened, "Store.open waited for the thread holding the write transaction")
    }

    @Test func anOpenWithSomethingToWriteStillWrites() throws {
        let dir = TemporaryDirectory("open-while-writing")
        defer { dir.remove() }
        do {
            let store = try Store.open(at: dir.path, collections: [Post.self])
            try store.write { tx in try tx.add(Post(id: 1, author: "ann", text: "hi", created: Date(), likes: 0)) }
            store.close()
        }
        // A collection the database does not have yet: created by the open, in a write.
        let store = try Store.open(at: dir.path, collections: [Post.self, Member.self])
        defer { store.close() }
        try store.write { tx in try tx.add(Member(id: "m", handle: "ann", name: "Ann")) }
        #expect(try store.read { try $0.count(Member.self) } == 1)
        #expect(try store.read { try $0.count(Post.self) } == 1)
    }
}

/// Two opens of one path are two handles on the process's one environment: each stays usable
/// until it is closed, in either order, from any thread or task.
@Suite("Opening a path twice")
struct OpenTwiceTests {
    static func post(_ id: Int64) -> Post { Post(id: id, author: "ann", text: "hi", created: Date(timeIntervalSince1970: 0), likes: 0) }

    @Test(arguments: [true, false])
    func closingEitherHandleLeavesTheOtherUsable(closeFirstOneFirst: Bool) throws {
        let dir = TemporaryDirectory("open-twice")
        defer { dir.remove() }
        let first = try Store.open(at: dir.path, collections: [Post.self])
        // The same directory spelled differently.
        let second = try Store.open(at: dir.path + "/./", collections: [Post.self])
        try first.write { try $0.add(Self.post(1)) }
        try second.write { try $0.add(Self.post(2)) }
        let (closed, open) = closeFirstOneFirst ? (first, second) : (second, first)
        closed.close()
        try open.write { try $0.add(Self.post(3)) }
        #expect(try open.read { try $0.count(Post.self) } == 3)
        #expect(throws: StoreError.self) { try closed.read { try $0.count(Post.self) } }
        open.close()
        // Everything closed: a new open opens the environment afresh.
        let again = try Store.open(at: dir.path, collections: [Post.self])
        defer { again.close() }
        #expect(try again.read { try $0.count(Post.self) } == 3)
    }

    @Test func aHandleThatGoesOutOfScopeLeavesTheOtherUsable() throws {
        let dir = TemporaryDirectory("open-twice")
        defer { dir.remove() }
        let kept = try Store.open(at: dir.path, collections: [Post.self])
        defer { kept.close() }
        do {
            let transient = try Store.open(at: dir.path, collections: [Post.self])
            try transient.write { try $0.add(Self.post(1)) }
        }
        #expect(try kept.read { try $0.count(Post.self) } == 1)
    }

    @Test func handlesOpenedAndClosedOnManyThreadsAndTasks() async throws {
        let dir = TemporaryDirectory("open-twice")
        defer { dir.remove() }
        let kept = try Store.open(at: dir.path, collections: [Post.self])
        defer { kept.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<20 {
                        let store = try Store.open(at: dir.path, collections: [Post.self])
                        try await store.write { try $0.add(Self.post(Int64(task * 100 + round))) }
                        store.close()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await kept.read { try $0.count(Post.self) } == 8 * 20)
    }

    @Test func handlesOpenedAndClosedOnManyThreads() throws {
        let dir = TemporaryDirectory("open-twice")
        defer { dir.remove() }
        let kept = try Store.open(at: dir.path, collections: [Post.self])
        defer { kept.close() }
        let done = DispatchGroup()
        for thread in 0..<4 {
            done.enter()
            Thread { [dir] in
                for round in 0..<20 {
                    if let store = try? Store.open(at: dir.path, collections: [Post.self]) {
                        _ = try? store.write { try $0.add(Self.post(Int64(10_000 + thread * 100 + round))) }
                    }
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(try kept.read { try $0.count(Post.self) } == 4 * 20)
    }

    @Test func aDifferentConfigurationIsRefusedNamingTheSetting() throws {
        let dir = TemporaryDirectory("open-twice")
        defer { dir.remove() }
        let first = try Store.open(at: dir.path, collections: [Post.self])
        defer { first.close() }
        var configuration = StoreConfiguration()
        configuration.durability = .noSync
        let error = #expect(throws: StoreError.self) {
            try Store.open(at: dir.path, configuration: configuration, collections: [Post.self])
        }
        #expect(error?.message.contains("durability: noSync asked, full open") == true, "\(String(describing: error))")
        #expect(try first.read { try $0.count(Post.self) } == 0)
    }
}
