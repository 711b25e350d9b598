import Foundation
import Testing
import TweetieSync

/// `tweetie-serve` as a browser and an HTTP cache see it: a server process on an ephemeral loopback
/// port, `tweetie-db` processes writing the same database.
@Suite("tweetie-serve serves the feeds over HTTP and SSE", .serialized)
struct ServeTests {
    static let now = "2018-12-12T00:00:00Z"

    /// A database with two simulated ticks.
    static func seeded() throws -> ScratchDatabase {
        let db = ScratchDatabase()
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "2", "--db", db.path]).status == 0)
        return db
    }

    /// What `tweetie-db feed ARGS --once --now` prints (its first line).
    /// The first line of `tweetie-db feed … --once` with the server's default window (`--limit 100`),
    /// or with `limit` when the request asks for another.
    static func once(_ feed: [String], _ db: ScratchDatabase, limit: Int = 100) throws -> String {
        let output = try Executables.tweetieDB(["feed"] + feed + ["--once", "--limit", "\(limit)", "--now", now, "--db", db.path]).stdout
        return String(String(decoding: output, as: UTF8.self).split(separator: "\n")[0])
    }

    static func state<Row>(of line: String, as: Row.Type) throws -> FeedState<Row> {
        var state = FeedState<Row>()
        try state.apply(try RecordJSON.decoder().decode(FeedMessage<Row>.self, from: Data(line.utf8)))
        return state
    }

    /// A renderer fed by an event stream: applies every event, checks ids and event names.
    struct Follower<Row: Codable & Sendable & Hashable> {
        var state = FeedState<Row>()
        var events: [ServerSentEvent] = []

        mutating func apply(_ event: ServerSentEvent) throws {
            let message = try RecordJSON.decoder().decode(FeedMessage<Row>.self, from: Data(event.data.utf8))
            #expect(event.id == message.position.description, "id is the position")
            let expected = message.type == .change ? "change" : (message.reason == .reset ? "reset" : "snapshot")
            #expect(event.name == expected)
            try state.apply(message)
            events.append(event)
        }

        /// Applies events until the state's sections are `expected`'s (a commit that leaves the feed
        /// unchanged may bring no message, so sequences alone cannot tell when to stop).
        mutating func follow(_ stream: EventStream, toMatch expected: FeedState<Row>) throws {
            while state.sections != expected.sections || events.isEmpty {
                guard let event = try stream.next(timeout: 30) else { throw TestFailure("the stream ended at \(state.sequence)") }
                try apply(event)
            }
        }

        mutating func follow(_ stream: EventStream, until sequence: UInt64) throws {
            while state.sequence < sequence || events.isEmpty {
                guard let event = try stream.next() else { throw TestFailure("the stream ended at \(state.sequence), before \(sequence)") }
                try apply(event)
            }
        }
    }

    @Test(arguments: [("/feeds/list", ["list"]), ("/feeds/list?sections=none&moves=0", ["list", "--sections", "none", "--no-moves"]),
                      ("/feeds/person/mayalindqvist?sections=day", ["person", "mayalindqvist", "--sections", "day"])])
    func aFollowerEndsInTheStateOfFeedOnce(path: String, feed: [String]) throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        let stream = try EventStream(port: server.port, path)
        #expect(stream.head.status == 200)
        #expect(stream.head.headers["content-type"] == "text/event-stream")
        var follower = Follower<TimelineRow>()
        try follower.follow(stream, until: 0)
        #expect(follower.events.first?.name == "snapshot")
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "30", "--db", db.path]).status == 0)
        let newest = follower.state.sections.first?.rows.prefix(2).map { "\($0.id)" } ?? []
        #expect(try Executables.tweetieDB(["tweets", "delete", "--force"] + newest + ["--db", db.path]).status == 0)
        try follower.follow(stream, toMatch: try Self.state(of: try Self.once(feed, db), as: TimelineRow.self))
        #expect(follower.events.dropFirst().contains { $0.name == "change" })
        let once = try Self.once(feed, db)
        #expect(follower.state.sections == (try Self.state(of: once, as: TimelineRow.self)).sections)
        // The JSON snapshot is byte for byte what `feed --once` prints.
        let snapshot = try HTTPReply.get(port: server.port, path)
        #expect(snapshot.status == 200)
        #expect(snapshot.text == once)
        #expect(server.stop() == 0)
    }

    /// A served feed is a window: 100 rows unless `limit` asks for another, each snapshot the
    /// one `feed --once --limit` prints; a follower of a small window ends where it does too.
    @Test func everyServedFeedIsAWindowOfTheLimitAskedFor() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "30", "--db", db.path]).status == 0)
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        for (path, limit) in [("/feeds/list", 100), ("/feeds/list?limit=5", 5), ("/feeds/list?limit=10000", 10_000)] {
            let snapshot = try HTTPReply.get(port: server.port, path)
            let once = try Self.once(["list"], db, limit: limit)
            #expect(snapshot.status == 200 && snapshot.text == once, "\(path)")
            let state = try Self.state(of: snapshot.text, as: TimelineRow.self)
            #expect(state.window?.limit == limit, "\(path)")
        }
        let stream = try EventStream(port: server.port, "/feeds/list?limit=4&sections=none")
        var follower = Follower<TimelineRow>()
        try follower.follow(stream, until: 0)
        #expect(follower.state.window == FeedMessage<TimelineRow>.Window(limit: 4, more: true))
        let newest = follower.state.sections.first?.rows.prefix(3).map { "\($0.id)" } ?? []
        #expect(try Executables.tweetieDB(["tweets", "delete", "--force"] + newest + ["--db", db.path]).status == 0)
        let once = try Self.once(["list", "--sections", "none"], db, limit: 4)
        try follower.follow(stream, toMatch: try Self.state(of: once, as: TimelineRow.self))
        #expect(follower.state.sections == (try Self.state(of: once, as: TimelineRow.self)).sections)
        #expect(follower.state.sections.first?.rows.count == 4)
        #expect(server.stop() == 0)
    }

    @Test func thePeopleFeedFollowsToo() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        let stream = try EventStream(port: server.port, "/feeds/people")
        var follower = Follower<PersonRow>()
        try follower.follow(stream, until: 0)
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "6", "--ticks", "20", "--db", db.path]).status == 0)
        try follower.follow(stream, toMatch: try Self.state(of: try Self.once(["people"], db), as: PersonRow.self))
        #expect(follower.state.sections == (try Self.state(of: try Self.once(["people"], db), as: PersonRow.self)).sections)
        #expect(server.stop() == 0)
    }

    @Test func snapshotsCarryAnETagAndIfNoneMatchGives304() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        func position(_ text: String) throws -> ChangeLogPosition {
            try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(text.utf8)).position
        }
        let first = try HTTPReply.get(port: server.port, "/feeds/list")
        #expect(first.status == 200)
        // The ETag is the snapshot's position: its sequence with that commit's id.
        let tag = "\"\(try position(first.text))\""
        #expect(try position(first.text).sequence == (try db.lastSequence()))
        #expect(first.headers["etag"] == tag)
        #expect(first.headers["content-type"] == "application/json")
        let again = try HTTPReply.get(port: server.port, "/feeds/list", headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.headers["etag"] == tag)
        // A bare sequence (an ETag of the format before positions) names no snapshot for sure.
        let bare = "\"\(try db.lastSequence())\""
        #expect(try HTTPReply.get(port: server.port, "/feeds/list", headers: ["If-None-Match": bare]).status == 200)
        #expect(try HTTPReply.get(port: server.port, "/feeds/list", headers: ["If-None-Match": "\"1\""]).status == 200)
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "5", "--db", db.path]).status == 0)
        // The sync made several commits; the server's observer catches up through them, so the
        // first reply that is not a 304 may show one in between. Wait for the last one's ETag.
        let final = try Self.once(["list"], db)
        let finalTag = "\"\(try position(final))\""
        var changed = try HTTPReply.get(port: server.port, "/feeds/list", headers: ["If-None-Match": tag])
        let deadline = Date().addingTimeInterval(30)
        while (changed.status == 304 || changed.headers["etag"] != finalTag) && Date() < deadline {
            usleep(50_000)
            changed = try HTTPReply.get(port: server.port, "/feeds/list", headers: ["If-None-Match": tag])
        }
        #expect(changed.status == 200)
        #expect(changed.headers["etag"] == finalTag && finalTag != tag)
        #expect(changed.text == final)
        #expect(server.stop() == 0)
    }

    @Test func unknownPathsBadParametersAndWritesAreRefusedWithJSONErrors() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        let cases: [(String, String, Int)] = [
            ("GET", "/nothing", 404), ("GET", "/feeds/timeline", 404), ("GET", "/feeds/person", 404),
            ("GET", "/feeds/list?sections=week", 400), ("GET", "/feeds/list?moves=yes", 400), ("GET", "/feeds/list?after=-1", 400),
            ("GET", "/feeds/list?color=red", 400), ("GET", "/feeds/list?moves=1&moves=0", 400),
            ("GET", "/feeds/person/a%20b", 400), ("GET", "/feeds/people?sections=day", 400),
            ("GET", "/feeds/list?limit=0", 400), ("GET", "/feeds/list?limit=10001", 400), ("GET", "/feeds/list?limit=%2B5", 400),
            ("GET", "/feeds/list?limit=five", 400), ("GET", "/feeds/list?limit=", 400), ("GET", "/feeds/list?limit=99999999999999999999", 400),
            ("POST", "/feeds/list", 405), ("DELETE", "/", 405),
        ]
        for (method, path, status) in cases {
            let reply = try HTTPReply.get(port: server.port, path, method: method)
            #expect(reply.status == status, "\(method) \(path)")
            let body = try JSONSerialization.jsonObject(with: reply.body) as? [String: String]
            #expect(body?["error"]?.isEmpty == false, "\(method) \(path): \(reply.text)")
            #expect(reply.headers["content-security-policy"] == "default-src 'self'")
            #expect(reply.headers["x-content-type-options"] == "nosniff")
        }
        let badID = try EventStream(port: server.port, "/feeds/list", headers: ["Last-Event-ID": "twelve"])
        #expect(badID.head.status == 400)
        // A malformed ?after= is refused even when a well-formed Last-Event-ID, which wins, comes with it.
        for feed in ["/feeds/list", "/feeds/person/mayalindqvist", "/feeds/people"] {
            let badAfter = try EventStream(port: server.port, feed + "?after=abc", headers: ["Last-Event-ID": "5"])
            #expect(badAfter.head.status == 400, "\(feed)?after=abc with Last-Event-ID: 5")
        }
        let page = try HTTPReply.get(port: server.port, "/")
        #expect(page.status == 200 && page.text.contains("<html"))
        #expect(page.headers["content-security-policy"] == "default-src 'self'")
        #expect(try HTTPReply.get(port: server.port, "/healthz").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func pastMaxClientsA503WithRetryAfter() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now, "--max-clients", "2"])
        let first = try EventStream(port: server.port, "/feeds/list")
        let second = try EventStream(port: server.port, "/feeds/people")
        #expect(first.head.status == 200 && second.head.status == 200)
        let third = try EventStream(port: server.port, "/feeds/list")
        #expect(third.head.status == 503)
        #expect(third.head.headers["retry-after"] == "5")
        // The JSON snapshot is not a stream: it is still served.
        #expect(try HTTPReply.get(port: server.port, "/feeds/list").status == 200)
        let metrics = try HTTPReply.get(port: server.port, "/metrics").text
        func value(_ name: String) -> Double? {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
        }
        #expect(value("tweetie_serve_clients") == 2)
        #expect(value("tweetie_serve_refused_total") == 1)
        #expect(server.stop() == 0)
    }

    /// Each window is an observation of its own: at most four limits of one feed at once, an
    /// unused one stopping to make room, else 503 (many limits must not multiply the memory).
    @Test func atMostFourWindowsOfOneFeedAreObservedAtOnce() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        var streams = try (1...4).map { try EventStream(port: server.port, "/feeds/list?limit=\($0)") }
        #expect(streams.allSatisfy { $0.head.status == 200 })
        let refused = try HTTPReply.get(port: server.port, "/feeds/list?limit=5")
        #expect(refused.status == 503 && refused.text.contains("windows of this feed"), "\(refused.text)")
        // A limit in use, another feed, and another variant of the list feed are still served.
        #expect(try HTTPReply.get(port: server.port, "/feeds/list?limit=4").status == 200)
        #expect(try HTTPReply.get(port: server.port, "/feeds/people?limit=5").status == 200)
        #expect(try HTTPReply.get(port: server.port, "/feeds/list?limit=5&sections=none").status == 200)
        // Once a window's last client is gone, a new limit takes its place.
        streams.removeFirst()  // its socket closes
        let deadline = Date().addingTimeInterval(20)
        var reply = try HTTPReply.get(port: server.port, "/feeds/list?limit=5")
        while reply.status != 200 && Date() < deadline {
            usleep(100_000)
            reply = try HTTPReply.get(port: server.port, "/feeds/list?limit=5")
        }
        #expect(reply.status == 200)
        #expect(streams.count == 3)
        #expect(server.stop() == 0)
    }

    @Test(arguments: ["Last-Event-ID", "after"])
    func aResumedClientGetsTheChangesItMissed(how: String) throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        var follower = Follower<TimelineRow>()
        do {
            let stream = try EventStream(port: server.port, "/feeds/list")
            try follower.follow(stream, until: 0)
        }  // forced disconnect
        let resumedFrom = follower.state.position
        // A second client keeps the feed moving while the first one is away.
        let other = try EventStream(port: server.port, "/feeds/list")
        var otherFollower = Follower<TimelineRow>()
        try otherFollower.follow(other, until: 0)
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "10", "--db", db.path]).status == 0)
        try otherFollower.follow(other, toMatch: try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self))
        let path = how == "after" ? "/feeds/list?after=\(resumedFrom)" : "/feeds/list"
        let stream = try EventStream(port: server.port, path, headers: how == "after" ? [:] : ["Last-Event-ID": "\(resumedFrom)"])
        let before = follower.events.count
        try follower.follow(stream, toMatch: try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self))
        #expect(follower.events[before...].allSatisfy { $0.name == "change" }, "only the missed changes, no snapshot")
        #expect(follower.state == otherFollower.state)
        #expect(follower.state.sections == (try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self)).sections)
        #expect(server.stop() == 0)
    }

    @Test func aClientResumesAcrossAServerRestart() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        var follower = Follower<TimelineRow>()
        var server = try ServerProcess(["--db", db.path, "--now", Self.now])
        do {
            let stream = try EventStream(port: server.port, "/feeds/list")
            try follower.follow(stream, until: 0)
        }
        #expect(server.stop(signal: SIGKILL) != nil)
        // Nothing was committed: the restarted server resumes the client without a snapshot.
        server = try ServerProcess(["--db", db.path, "--now", Self.now])
        var stream = try EventStream(port: server.port, "/feeds/list", headers: ["Last-Event-ID": "\(follower.state.position)"])
        var before = follower.events.count
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "10", "--db", db.path]).status == 0)
        try follower.follow(stream, toMatch: try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self))
        #expect(follower.events.count > before)
        #expect(follower.events[before...].allSatisfy { $0.name == "change" })
        #expect(server.stop(signal: SIGKILL) != nil)
        // Commits while the server is down: the log cannot tell the old rows, so a reset snapshot.
        #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "6", "--ticks", "10", "--db", db.path]).status == 0)
        server = try ServerProcess(["--db", db.path, "--now", Self.now])
        stream = try EventStream(port: server.port, "/feeds/list", headers: ["Last-Event-ID": "\(follower.state.position)"])
        before = follower.events.count
        try follower.follow(stream, toMatch: try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self))
        try #require(follower.events.count > before, "the commits changed the feed")
        #expect(follower.events[before].name == "reset")
        #expect(follower.state.sections == (try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self)).sections)
        #expect(server.stop() == 0)
    }

    /// The database restored from an older backup and written again, back to the client's
    /// sequence: the client's position is not in the restored history, so it gets a reset
    /// snapshot, not the rows it holds (three of them deleted, three missing).
    @Test func aClientResumingAfterARestoreGetsAReset() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let backup = ScratchDatabase()
        defer { backup.remove() }
        let ids = try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self).sections.flatMap(\.rows).map(\.id)
        try #require(ids.count >= 6)
        #expect(try Executables.tweetieDB(["backup", "--db", db.path, backup.path]).status == 0)
        var server = try ServerProcess(["--db", db.path, "--now", Self.now])
        var follower = Follower<TimelineRow>()
        do {
            let stream = try EventStream(port: server.port, "/feeds/list")
            try follower.follow(stream, until: 0)
            for id in ids[0..<3] {
                #expect(try Executables.tweetieDB(["tweets", "delete", "--force", String(id), "--db", db.path]).status == 0)
            }
            try follower.follow(stream, toMatch: try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self))
        }
        #expect(server.stop() == 0)
        // The restore: the backup's data file in place of the database's, then three other commits.
        try FileManager.default.removeItem(atPath: db.path + "/data.mdb")
        try FileManager.default.removeItem(atPath: db.path + "/lock.mdb")
        try FileManager.default.copyItem(atPath: backup.path + "/data.mdb", toPath: db.path + "/data.mdb")
        for id in ids[3..<6] {
            #expect(try Executables.tweetieDB(["tweets", "delete", "--force", String(id), "--db", db.path]).status == 0)
        }
        #expect(try db.lastSequence() == follower.state.sequence, "the restored database is back at the client's sequence")
        server = try ServerProcess(["--db", db.path, "--now", Self.now])
        let stream = try EventStream(port: server.port, "/feeds/list", headers: ["Last-Event-ID": "\(follower.state.position)"])
        let before = follower.events.count
        let expected = try Self.state(of: try Self.once(["list"], db), as: TimelineRow.self)
        try follower.follow(stream, toMatch: expected)
        #expect(follower.events[before].name == "reset")
        #expect(Set(follower.state.sections.flatMap(\.rows).map(\.id)) == Set(ids[0..<3]).union(ids[6...]))
        #expect(server.stop() == 0)
    }

    /// Reads a response head through its blank line; its text (status line and header lines).
    static func rawHead(_ socket: TestSocket) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        while socket.find([13, 10, 13, 10]) == nil {
            guard try socket.fill(until: deadline) else { throw TestFailure("the connection closed before a response head") }
        }
        return String(decoding: socket.consume(socket.find([13, 10, 13, 10])! + 4), as: UTF8.self).lowercased()
    }

    @Test func anHTTP10ClientGetsAStreamDelimitedByTheConnectionsClose() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        // A snapshot: its Content-Length, and the connection closed after it (no keep-alive asked).
        let plain = try TestSocket(port: server.port)
        try plain.send("GET /feeds/list HTTP/1.0\r\n\r\n")
        let plainHead = try Self.rawHead(plain)
        #expect(plainHead.contains("\r\ncontent-length: "), "\(plainHead)")
        #expect(try ServeLimitsTests.secondsUntilClosed(plain, timeout: 10) != nil, "the server closes an HTTP/1.0 connection after its answer")
        #expect(String(decoding: plain.buffer, as: UTF8.self) == (try Self.once(["list"], db)))
        // A stream: no chunked framing, whose end is the connection's.
        let stream = try TestSocket(port: server.port)
        try stream.send("GET /feeds/list HTTP/1.0\r\nAccept: text/event-stream\r\nConnection: keep-alive\r\n\r\n")
        let head = try Self.rawHead(stream)
        #expect(head.hasPrefix("http/1.0 200 "), "\(head)")
        #expect(!head.contains("transfer-encoding"), "\(head)")
        #expect(head.contains("\r\nconnection: close\r\n"), "\(head)")
        #expect(head.contains("\r\ncontent-type: text/event-stream\r\n"), "\(head)")
        while stream.find(Array("\n\n".utf8)) == nil { _ = try stream.fill(until: Date().addingTimeInterval(60)) }
        #expect(String(decoding: stream.buffer, as: UTF8.self).hasPrefix("event: snapshot\nid: "), "the body is the events themselves")
        #expect(server.stop() == 0)
        #expect(try ServeLimitsTests.secondsUntilClosed(stream, timeout: 10) != nil, "the stream's end closes the connection")
        #expect(String(decoding: stream.buffer, as: UTF8.self).hasSuffix("\n\n"), "nothing after the last event: no chunk trailer")
    }

    @Test func sigtermEndsTheStreamsAndExitsZero() throws {
        let db = try Self.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", Self.now])
        let stream = try EventStream(port: server.port, "/feeds/list")
        #expect(try stream.next()?.name == "snapshot")
        let started = Date()
        #expect(server.stop(signal: SIGTERM) == 0)
        #expect(Date().timeIntervalSince(started) < 10, "a stream does not hold the shutdown back")
        #expect(try stream.next(timeout: 10) == nil, "the stream ended")
        #expect(throws: (any Error).self) { try TestSocket(port: server.port) }
    }
}
