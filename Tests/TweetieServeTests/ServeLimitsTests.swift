import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TweetieServe
import TweetieSync
import TweetieTestSupport

/// The limits of a connection: the size of its request head, how long it may stay idle, and how
/// soon a client that went away gives back its slot; the limit on connections, what the server does
/// when it runs out of descriptors, and what clients that read nothing cost it.
@Suite("tweetie-serve limits request heads, idle connections and connections, frees a gone client's slot at once, survives running out of descriptors and clients that read nothing", .serialized)
struct ServeLimitsTests {
    /// Reads until the server ends the connection; the seconds it took, or `nil` when it was still
    /// open at `timeout`.
    static func secondsUntilClosed(_ socket: TestSocket, timeout: Double) throws -> Double? {
        let start = Date()
        let deadline = start.addingTimeInterval(timeout)
        do {
            while try socket.fill(until: deadline) {}
        } catch is TestFailure {
            return nil
        }
        return Date().timeIntervalSince(start)
    }

    /// Runs `body` with a seeded database and `tweetie-serve arguments…` on it; then the server must
    /// stop with status 0.
    static func serving(_ arguments: [String], _ body: (ServerProcess, ScratchDatabase) throws -> Void) throws {
        let db = try ServeTests.seeded()
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", ServeTests.now] + arguments)
        try body(server, db)
        #expect(server.stop() == 0)
    }

    /// `GET /feeds/list` with one header field of `filler` bytes.
    static func request(filler: Int) -> String {
        "GET /feeds/list HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: \(String(repeating: "a", count: filler))\r\n\r\n"
    }

    @Test func aRequestHeadOver16KiBIsRefusedWith400AndTheConnectionCloses() throws {
        try Self.serving([]) { server, _ in
            // Under the limit (12 KiB of header fields): served.
            let fits = try TestSocket(port: server.port)
            try fits.send(Self.request(filler: 12 * 1024))
            #expect(try fits.readHead(until: Date().addingTimeInterval(30)).status == 200)
            // Over it (the request line and header fields together past 16 KiB).
            let oversized = try TestSocket(port: server.port)
            try oversized.send(Self.request(filler: 16 * 1024))
            let head = try oversized.readHead(until: Date().addingTimeInterval(30))
            #expect(head.status == 400)
            #expect(head.headers["connection"] == "close")
            #expect(try Self.secondsUntilClosed(oversized, timeout: 10) != nil, "the server ends the connection after its answer")
            #expect(try HTTPReply.get(port: server.port, "/healthz").status == 200, "the server goes on")
        }
    }

    @Test func aConnectionIdleForTheIdleTimeoutIsClosed() throws {
        try Self.serving(["--idle-timeout", "1"]) { server, _ in
            let silent = try TestSocket(port: server.port)
            let halfHead = try TestSocket(port: server.port)
            try halfHead.send("GET /feeds/list HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let afterResponse = try TestSocket(port: server.port)
            try afterResponse.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try afterResponse.readHead(until: Date().addingTimeInterval(30)).status == 200)
            for (name, socket) in [("sends nothing", silent), ("stops in its request head", halfHead), ("sends no second request", afterResponse)] {
                #expect(try Self.secondsUntilClosed(socket, timeout: 10) != nil, "a connection that \(name) is closed")
            }
            // Closed by the limit, not at once: a fresh connection is still open half a second in.
            let fresh = try TestSocket(port: server.port)
            #expect(try Self.secondsUntilClosed(fresh, timeout: 0.5) == nil)
            #expect(try Self.secondsUntilClosed(fresh, timeout: 10) != nil)
        }
    }

    @Test func anEventStreamOutlivesTheIdleTimeout() throws {
        try Self.serving(["--idle-timeout", "1"]) { server, db in
            let stream = try EventStream(port: server.port, "/feeds/list")
            #expect(try stream.next()?.name == "snapshot")
            Thread.sleep(forTimeInterval: 2.5)
            #expect(try Executables.tweetieDB(["sync", "--simulated", "--seed", "5", "--ticks", "5", "--db", db.path]).status == 0)
            #expect(try stream.next(timeout: 30)?.name == "change", "the stream, silent on the client's side for 2.5 s, still delivers")
        }
    }

    @Test func pastMaxConnectionsANewConnectionWaitsUntilOneCloses() throws {
        try Self.serving(["--max-connections", "3", "--max-clients", "1"]) { server, _ in
            // Three connections, kept alive after their answers: the limit.
            var held = try (0..<3).map { _ in
                let socket = try TestSocket(port: server.port)
                try socket.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(try socket.readHead(until: Date().addingTimeInterval(30)).status == 200)
                return socket
            }
            // A fourth: connected (the kernel's backlog), but not accepted, so not answered.
            let fourth = try TestSocket(port: server.port)
            try fourth.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(try Self.secondsUntilClosed(fourth, timeout: 1) == nil && fourth.buffer.isEmpty, "no answer while 3 connections are open")
            // One of the three closes: the fourth is accepted and answered, one of three connections.
            held.removeFirst()
            #expect(try fourth.readHead(until: Date().addingTimeInterval(30)).status == 200)
            while try fourth.fill(until: Date().addingTimeInterval(30)) {}
            let metrics = String(decoding: fourth.buffer, as: UTF8.self)
            let connections = metrics.split(separator: "\n").first { $0.hasPrefix("tweetie_serve_connections ") }
            #expect(connections.flatMap { Double($0.dropFirst("tweetie_serve_connections ".count)) } == 3, "\(metrics)")
            #expect(held.count == 2)
        }
    }

    /// Under a descriptor limit of 200, 300 connections that send nothing. By default the server
    /// takes what its connection limit (200 less 64) allows and leaves the rest in the backlog; with
    /// a `--max-connections` past what its descriptors allow, its accepts fail and it pauses, and says
    /// so once. Either way it does not spin on the waiting connections, and it answers again once
    /// they close.
    @Test(arguments: [[], ["--max-connections", "1000", "--max-clients", "100"]])
    func outOfDescriptorsTheServerNeitherSpinsNorStopsAnswering(extra: [String]) throws {
        try FileDescriptorLimit.raise(toAtLeast: 1024)
        let db = try ServeTests.seeded()
        defer { db.remove() }
        let directory = TemporaryDirectory("serve-descriptors")
        defer { directory.remove() }
        let log = directory.sub("stderr.log")
        let server = try ServerProcess(["--db", db.path, "--now", ServeTests.now] + extra, openFiles: 200, log: log)
        var flood = try (0..<300).map { _ in try TestSocket(port: server.port) }
        Thread.sleep(forTimeInterval: 1)
        let (cpu, start) = (try server.cpuSeconds(), Date())
        Thread.sleep(forTimeInterval: 3)
        let share = (try server.cpuSeconds() - cpu) / Date().timeIntervalSince(start)
        #expect(share < 0.5, "the server used \(Int(share * 100)) % of a core while 300 connections waited")
        let warnings = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "cannot accept a connection").count - 1
        #expect(warnings == (extra.isEmpty ? 0 : 1), "the failed accepts are logged once (none when the limit keeps them from failing)")
        flood.removeAll()
        #expect(try HTTPReply.get(port: server.port, "/healthz", timeout: 30).status == 200, "answered once the flood is gone")
        #expect(server.stop() == 0)
    }

    /// A database of `count` tweets in the list (one seeded tweet, cloned with new ids, dates and
    /// 180-character texts) and the seeded users: a list snapshot of about 420 bytes a tweet.
    static func large(tweets count: Int) throws -> ScratchDatabase {
        let seeded = try ServeTests.seeded()
        defer { seeded.remove() }
        let lines = String(decoding: try Executables.tweetieDB(["export", "--db", seeded.path]).stdout, as: UTF8.self).split(separator: "\n")
        let records = try lines.dropFirst().map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let users = records.filter { $0["collection"] as? String == "users" }
        var tweet = try #require(records.first { $0["collection"] as? String == "tweets" }?["record"] as? [String: Any])
        tweet["inReplyToId"] = nil
        tweet["inReplyToIdStr"] = nil
        let header: [String: Any] = ["format": "tweetie-db-export", "version": 1, "collections": [
            ["name": "tweets", "count": count, "schemaVersion": 1], ["name": "users", "count": users.count, "schemaVersion": 1]]]
        var file = Data()
        func line(_ object: [String: Any]) throws {
            file += try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            file += Data("\n".utf8)
        }
        try line(header)
        for index in 0..<count {
            let id = 1_069_911_675_106_231_000 + index
            tweet["id"] = id
            tweet["idStr"] = String(id)
            tweet["created"] = String(format: "2018-12-%02dT%02d:%02d:%02d.000Z", 1 + index % 11, index / 3600 % 24, index / 60 % 60, index % 60)
            tweet["text"] = "tweet \(index) " + String(repeating: "x", count: 180)
            try line(["collection": "tweets", "record": tweet])
        }
        for user in users { try line(user) }
        let directory = TemporaryDirectory("serve-large")
        defer { directory.remove() }
        try file.write(to: URL(fileURLWithPath: directory.sub("large.ndjson")))
        let db = ScratchDatabase()
        #expect(try Executables.tweetieDB(["import", directory.sub("large.ndjson"), "--db", db.path]).status == 0)
        return db
    }

    /// Forty clients that read nothing after the first bytes of a 3.4 MB snapshot: each one's
    /// snapshot is the one buffer they all share, so the server grows by far less than one copy
    /// per client (a copy each grew it by 40 × 3.4 MB).
    @Test func stalledClientsShareOneSnapshotInsteadOfACopyEach() throws {
        let db = try Self.large(tweets: 8000)
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", ServeTests.now])
        // The largest window, so that the snapshot holds every tweet.
        let first = try EventStream(port: server.port, "/feeds/list?limit=10000")
        let snapshot = try #require(try first.next()).data.utf8.count
        #expect(snapshot > 3_000_000)
        let before = try server.residentBytes()
        let stalled = try (0..<40).map { _ in
            let stream = try EventStream(port: server.port, "/feeds/list?limit=10000", receiveBuffer: 4096)
            // The first bytes of its body: the server made this client's snapshot frame and writes it.
            while stream.socket.buffer.isEmpty { _ = try stream.socket.fill(until: Date().addingTimeInterval(60)) }
            return stream
        }
        let growth = try server.residentBytes() - before
        #expect(growth < 10 * snapshot, "40 stalled clients grew the server by \(growth / 1_000_000) MB; the snapshot is \(snapshot / 1_000_000) MB")
        #expect(stalled.count == 40)
        #expect(server.stop() == 0)
    }

    /// A stream and a 3.4 MB snapshot to clients that read nothing more: their responses never
    /// end, and the server closes their connections after its shutdown grace instead of waiting.
    @Test func sigtermEndsEvenWhenClientsReadNothing() throws {
        let db = try Self.large(tweets: 8000)
        defer { db.remove() }
        let server = try ServerProcess(["--db", db.path, "--now", ServeTests.now])
        let stream = try EventStream(port: server.port, "/feeds/list", receiveBuffer: 4096)
        let snapshot = try TestSocket(port: server.port, receiveBuffer: 4096)
        try snapshot.send("GET /feeds/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try snapshot.readHead(until: Date().addingTimeInterval(60)).status == 200)
        while stream.socket.buffer.isEmpty { _ = try stream.socket.fill(until: Date().addingTimeInterval(60)) }
        #expect(server.stop(timeout: 30) == 0, "SIGTERM ends the server within 30 s (its grace is 5 s)")
    }

    @Test func aClientThatGoesAwayGivesBackItsSlotAtOnce() throws {
        // No keep-alive and no commit while the test runs: nothing is written to the gone client.
        try Self.serving(["--max-clients", "1", "--keep-alive", "600"]) { server, _ in
            do {
                let first = try EventStream(port: server.port, "/feeds/list")
                #expect(try first.next()?.name == "snapshot")
                #expect(try EventStream(port: server.port, "/feeds/list").head.status == 503)
            }  // the first client closes its connection
            let deadline = Date().addingTimeInterval(5)
            var second = try EventStream(port: server.port, "/feeds/list")
            while second.head.status == 503 && Date() < deadline {
                usleep(50_000)
                second = try EventStream(port: server.port, "/feeds/list")
            }
            #expect(second.head.status == 200, "the slot is free within 5 s (the keep-alive, the next write, is 600 s away)")
            #expect(try second.next()?.name == "snapshot")
        }
    }
}
