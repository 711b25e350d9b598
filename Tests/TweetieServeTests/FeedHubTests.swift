import Foundation
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

    @Test func aClientPastTheQueueBoundGetsOneResetAndTheOthersEverything() async throws {
        let db = ScratchDatabase()
        defer { db.remove() }
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "1", "--db", db.path]).status == 0)
        let store = try TweetieDatabase.open(at: db.path)
        defer { store.close() }
        let metrics = ServeMetrics()
        let bound = 2
        let spec = FeedSpec(kind: .list, sections: .day, moves: true)
        let source = FeedSource(spec, list: ListIdentifier(username: "icanzilb", slug: "RxSwift"), store: store,
                                now: Date(timeIntervalSince1970: 1_544_572_800))
        let hub = FeedHub(spec: spec, source: source, queueBound: bound, historyBound: 100, metrics: metrics)
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
        let db = ScratchDatabase()
        defer { db.remove() }
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "1", "--db", db.path]).status == 0)
        let store = try TweetieDatabase.open(at: db.path)
        defer { store.close() }
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
        let addresses = frames.map { $0.bytes.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(Set(addresses).count == 1)
    }
}
