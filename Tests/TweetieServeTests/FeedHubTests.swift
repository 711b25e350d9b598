import Foundation
import NIOCore
import Synchronization
import Testing
@testable import TweetieServe
import TweetieSync

/// The fan-out in process: one observation per feed, the same bytes to every client, and the bound
/// on a slow client's queue.
@Suite("FeedHub bounds slow clients and shares one observation")
struct FeedHubTests {
    static func event(_ pull: FeedHub.Pull) -> ServerSentEvent? {
        guard case .frame(let frame) = pull else { return nil }
        let text = String(decoding: frame.bytes.readableBytesView, as: UTF8.self)
        var event = ServerSentEvent(name: "", id: nil, data: "")
        for line in text.split(separator: "\n") {
            if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
            if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
            if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
        }
        return event
    }

    static func message(_ event: ServerSentEvent?) throws -> FeedMessage<TimelineRow> {
        try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data((event?.data ?? "").utf8))
    }

    /// A database with one simulated tick, and its store open.
    static func seededStore() throws -> (ScratchDatabase, Store) {
        let db = ScratchDatabase()
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "1", "--db", db.path]).status == 0)
        do {
            return (db, try TweetieDatabase.open(at: db.path))
        } catch {
            db.remove()
            throw error
        }
    }

    /// A hub of the list feed by day (not running yet).
    static func listHub(_ store: Store, queueBound: Int, metrics: ServeMetrics) -> FeedHub {
        let spec = FeedSpec(kind: .list, sections: .day, moves: true)
        let source = FeedSource(spec, list: ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store,
                                now: Date(timeIntervalSince1970: 1_544_572_800))
        return FeedHub(spec: spec, source: source, queueBound: queueBound, historyBound: 100, metrics: metrics)
    }

    @Test func aClientPastTheQueueBoundGetsOneResetAndTheOthersEverything() async throws {
        let (db, store) = try Self.seededStore()
        defer { store.close(); db.remove() }
        let metrics = ServeMetrics()
        let bound = 2
        let hub = Self.listHub(store, queueBound: bound, metrics: metrics)
        let running = Task { await hub.run() }
        defer { running.cancel() }
        let slow = try await hub.subscribe(after: nil)
        let fast = try await hub.subscribe(after: nil)
        var fastState = FeedState<TimelineRow>()
        try fastState.apply(try Self.message(Self.event(try await hub.next(fast))))
        var slowState = FeedState<TimelineRow>()
        try slowState.apply(try Self.message(Self.event(try await hub.next(slow))))

        // Commits until the slow client, which reads nothing, is more than `bound` messages behind.
        var changes = 0
        for tick in 0..<40 where metrics.value(of: "tweetie_serve_slow_client_resets_total") == 0 {
            #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "\(7 + tick)", "--ticks", "1", "--db", db.path]).status == 0)
            let last = try db.lastSequence()
            while fastState.sequence < last {
                let event = Self.event(try await hub.next(fast))
                guard event?.name == "change" else { continue }
                try fastState.apply(try Self.message(event))
                changes += 1
            }
        }
        #expect(changes >= bound + 1, "the fast client got every change while the slow one read nothing")
        #expect(metrics.value(of: "tweetie_serve_slow_client_resets_total") == 1)

        // The slow client's next read is one reset snapshot of the current state, then it follows.
        let reset = Self.event(try await hub.next(slow))
        #expect(reset?.name == "reset")
        try slowState.apply(try Self.message(reset))
        #expect(slowState == fastState)
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "99", "--ticks", "3", "--db", db.path]).status == 0)
        let last = try db.lastSequence()
        while slowState.sequence < last {
            let event = Self.event(try await hub.next(slow))
            guard event?.name != nil, event?.name != "" else { continue }
            #expect(event?.name == "change")
            try slowState.apply(try Self.message(event))
        }
        while fastState.sequence < last { try fastState.apply(try Self.message(Self.event(try await hub.next(fast)))) }
        #expect(slowState == fastState)
        hub.unsubscribe(slow)
        hub.unsubscribe(fast)
    }

    @Test func equalFeedsShareOneHubAndOneEncodedFrame() async throws {
        let (db, store) = try Self.seededStore()
        defer { store.close(); db.remove() }
        var configuration = TweetieServer.Configuration()
        configuration.now = Date(timeIntervalSince1970: 1_544_572_800)
        let metrics = ServeMetrics()
        let hubs = FeedHubs(configuration: configuration, store: store, metrics: metrics)
        defer { hubs.closeAll() }
        let spec = FeedSpec(kind: .list, sections: .day, moves: true)
        let hub = try hubs.hub(for: spec)
        #expect(try hubs.hub(for: FeedSpec(kind: .list, sections: .day, moves: true)) === hub)
        #expect(try hubs.hub(for: FeedSpec(kind: .list, sections: .none, moves: true)) !== hub)
        let clients = try await [hub.subscribe(after: nil), hub.subscribe(after: nil), hub.subscribe(after: nil)]
        for client in clients { _ = try await hub.next(client) }
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "8", "--ticks", "1", "--db", db.path]).status == 0)
        var frames: [SSEFrame] = []
        for client in clients {
            guard case .frame(let frame) = try await hub.next(client) else { Issue.record("closed"); return }
            frames.append(frame)
        }
        // One encoding: every client's frame is the same storage, not an equal copy.
        #expect(Set(frames.map(Self.address)).count == 1)
    }

    @Test func aNewFeedsFirstSnapshotIsItsDeliveryNotASecondEncoding() async throws {
        // A source that delivers one snapshot and counts the snapshots made on demand.
        let made = Mutex(0)
        let position = ChangeLogPosition(sequence: 3, commitID: 0x5f3a9c0e12ab34cd)
        let json = Data(#"{"type":"snapshot","reason":"initial"}"#.utf8)
        let source = FeedSource(follow: { deliver in
            let event = FeedEvent(snapshotReason: .initial, position: position, json: json)
            await deliver(FeedDelivery(event: event) { reason in
                made.withLock { $0 += 1 }
                return FeedEvent(snapshotReason: reason, position: position, json: json)
            })
            try await Task.sleep(for: .seconds(3600))
        }, resumePoint: { _, _ in nil })
        let hub = FeedHub(spec: FeedSpec(kind: .list, sections: .day, moves: true, limit: 100), source: source,
                          queueBound: 4, historyBound: 10, metrics: ServeMetrics())
        let running = Task { await hub.run() }
        defer { running.cancel() }
        let client = try await hub.subscribe(after: nil)
        let event = try #require(Self.event(try await hub.next(client)))
        #expect(event.name == "snapshot" && event.id == position.description && event.data == String(decoding: json, as: UTF8.self))
        #expect(made.withLock { $0 } == 0, "the first client's snapshot is the delivery's own JSON, not a second encoding of every row")
        // The plain GET's snapshot of the same sequence is that frame too.
        #expect(try await hub.currentSnapshot { _ in false }.json != nil)
        #expect(made.withLock { $0 } == 0)
        hub.unsubscribe(client)
    }

    static func address(_ frame: SSEFrame) -> UInt { address(frame.bytes) }

    static func address(_ buffer: ByteBuffer) -> UInt { buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }

    /// Each client's next frame, read by all of them at once.
    static func nextFrames(_ hub: FeedHub, _ clients: [Int]) async throws -> [SSEFrame] {
        try await withThrowingTaskGroup(of: SSEFrame?.self) { group in
            for client in clients {
                group.addTask { if case .frame(let frame) = try await hub.next(client) { frame } else { nil } }
            }
            return try await group.reduce(into: []) { frames, frame in if let frame { frames.append(frame) } }
        }
    }

    @Test func snapshotsAreOneBufferSharedByEveryClientAndThePlainGet() async throws {
        let (db, store) = try Self.seededStore()
        defer { store.close(); db.remove() }
        let metrics = ServeMetrics()
        let hub = Self.listHub(store, queueBound: 1, metrics: metrics)
        let running = Task { await hub.run() }
        defer { running.cancel() }
        let clients = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await hub.subscribe(after: nil) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // The initial snapshot: one buffer for the eight clients, asking at once.
        let initial = try await Self.nextFrames(hub, clients)
        #expect(initial.count == clients.count)
        #expect(Set(initial.map(Self.address)).count == 1, "every client's snapshot is the same storage, not an equal copy")
        // The plain GET's JSON is a view of that buffer.
        let json = try #require(try await hub.currentSnapshot { _ in false }.json)
        let frameStart = Self.address(initial[0])
        #expect((frameStart..<frameStart + UInt(initial[0].bytes.readableBytes)).contains(Self.address(json)))
        #expect(json.readableBytes > 0 && json.readableBytes < initial[0].bytes.readableBytes)

        // Commits until every client, none of them reading, is past its queue of one: then each one's
        // next read is the reset snapshot, the same buffer for all.
        let deadline = Date().addingTimeInterval(60)
        var tick = 0
        while metrics.value(of: "tweetie_serve_slow_client_resets_total") != Double(clients.count) {
            try #require(Date() < deadline, "the clients were not all reset")
            #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "\(7 + tick)", "--ticks", "1", "--db", db.path]).status == 0)
            tick += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        // Every commit delivered, so that all the clients read the reset of one sequence.
        let last = try db.lastSequence()
        while try await hub.currentSnapshot(unchanged: { _ in true }).position.sequence < last {
            try #require(Date() < deadline, "the hub did not reach sequence \(last)")
            try await Task.sleep(for: .milliseconds(20))
        }
        let resets = try await Self.nextFrames(hub, clients)
        #expect(resets.allSatisfy { FeedHubTests.event(.frame($0))?.name == "reset" })
        #expect(Set(resets.map(Self.address)).count == 1, "every client's reset is the same storage")
        for client in clients { hub.unsubscribe(client) }
    }
}
