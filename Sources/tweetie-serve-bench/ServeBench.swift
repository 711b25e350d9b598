import ArgumentParser
import Foundation
import Histogram
import NIOCore
import NIOPosix
import Synchronization
import TweetieSync

/// The load benchmark of `tweetie-serve` (not a test): N Server-Sent Events clients on loopback
/// follow the list feed while K commits land; for each commit, the time from the commit's return
/// to the moment the last client received its message.
@main
struct ServeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-serve-bench",
        abstract: "Load benchmark: N SSE clients follow the list feed of a running tweetie-serve while K commits land.",
        discussion: """
            Start tweetie-serve on the same database first (with --max-clients at least N), and raise `ulimit -n` above N for both. Each commit rewrites the text of the list's newest tweet (one row modification), then waits until every client has received the message, or --timeout. Reports commit → last client and commit → each client (p50, p99, max; HdrHistogram), and with --server-pid the server's RSS and CPU time over the commits.
            """)

    @Option(name: .customLong("db"), help: "The database tweetie-serve serves.")
    var path: String

    @Option(help: "tweetie-serve's port on 127.0.0.1.")
    var port = 8080

    @Option(help: "SSE clients (N).")
    var clients = 100

    @Option(help: "Commits (K).")
    var commits = 50

    @Option(help: "Milliseconds between a commit's last delivery and the next commit.")
    var pause = 100

    @Option(help: "Seconds to wait for one commit's deliveries.")
    var timeout = 30.0

    @Option(name: .customLong("server-pid"), help: "tweetie-serve's process id, for its RSS and CPU time.")
    var serverPID: Int32?

    @Option(help: "The list, as OWNER/SLUG.")
    var list = "icanzilb/RxSwift"

    func run() async throws {
        let parts = list.split(separator: "/")
        guard parts.count == 2 else { throw ValidationError("--list is OWNER/SLUG") }
        let store = try TweetieDatabase.open(at: path)
        defer { store.close() }
        let query = TimelineTarget.list(ListIdentifier(username: String(parts[0]), slug: String(parts[1]))).storedTweets
        guard var tweet = try await store.read({ try $0.fetch(query) }).first else {
            throw ValidationError("the list has no tweets: run tweetie-db sync first")
        }

        let tracker = Tracker(clients: clients)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connectStart = ContinuousClock.now
        var channels: [any Channel] = []
        for index in 0..<clients {
            let handler = SSEClientHandler(index: index, tracker: tracker, port: port)
            let channel = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { $0.pipeline.addHandler(handler) }
                .connect(host: "127.0.0.1", port: port).get()
            channels.append(channel)
        }
        // Every client has its snapshot: the stream is established.
        let ready = try await store.read { try $0.lastChangeSequence() }
        guard try await tracker.wait(for: ready, timeout: .seconds(max(timeout, 60))) != nil else {
            throw ValidationError("not every client received the snapshot (\(tracker.arrivals) of \(clients)); is --max-clients large enough?")
        }
        print("connected \(clients) clients in \(connectStart.duration(to: .now)); snapshot \(tracker.snapshotBytes) bytes")
        let before = serverPID.map(ProcessStats.init(pid:))

        var last = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var each = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var missed = 0
        let benchStart = ContinuousClock.now
        for round in 0..<commits {
            tweet.text = "tweetie-serve-bench commit \(round) of \(commits)"
            let written = tweet
            try await store.write { writer in _ = try writer.add(written, update: .all) }
            let sequence = try await store.read { try $0.lastChangeSequence() }
            let committed = ContinuousClock.now
            tracker.expect(sequence, from: committed)
            guard let latencies = try await tracker.wait(for: sequence, timeout: .seconds(timeout)) else {
                missed += 1
                continue
            }
            for latency in latencies { each.record(UInt64(latency.inMicroseconds)) }
            last.record(UInt64(latencies.max()!.inMicroseconds))
            try await Task.sleep(for: .milliseconds(pause))
        }
        let elapsed = benchStart.duration(to: .now)
        let after = serverPID.map(ProcessStats.init(pid:))
        for channel in channels { channel.close(promise: nil) }
        try? await group.shutdownGracefully()

        func ms(_ value: UInt64) -> String { String(format: "%.2f", Double(value) / 1000) }
        print("clients \(clients), commits \(commits) (\(missed) not delivered to every client within \(timeout) s), pause \(pause) ms")
        print("commit → last client:  p50 \(ms(last.valueAtPercentile(50))) ms, p99 \(ms(last.valueAtPercentile(99))) ms, max \(ms(last.max)) ms")
        print("commit → each client:  p50 \(ms(each.valueAtPercentile(50))) ms, p99 \(ms(each.valueAtPercentile(99))) ms, max \(ms(each.max)) ms")
        if let before, let after {
            let cpu = after.cpuSeconds - before.cpuSeconds
            print(String(format: "server: RSS %.1f MiB (after connecting %.1f MiB), CPU %.2f s over %.2f s (%.0f%% of one core)",
                         Double(after.rssKiB) / 1024, Double(before.rssKiB) / 1024, cpu, elapsed.seconds, 100 * cpu / elapsed.seconds))
        }
    }
}

extension Duration {
    var inMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Which clients received the expected sequence, and when.
final class Tracker: Sendable {
    private struct State {
        var target: UInt64 = 0
        var committed = ContinuousClock.now
        var received: [Int: UInt64] = [:]  // client → highest id
        var latencies: [Duration] = []
        var snapshotBytes = 0
    }

    let clients: Int
    private let state = Mutex(State())

    init(clients: Int) { self.clients = clients }

    var arrivals: Int { state.withLock { state in state.received.values.filter { $0 >= state.target }.count } }
    var snapshotBytes: Int { state.withLock { $0.snapshotBytes } }

    func expect(_ sequence: UInt64, from committed: ContinuousClock.Instant) {
        state.withLock {
            $0.target = sequence
            $0.committed = committed
            $0.latencies = []
            $0.latencies.reserveCapacity(clients)
        }
    }

    func received(id: UInt64, client: Int, bytes: Int) {
        let now = ContinuousClock.now
        state.withLock { state in
            let previous = state.received[client] ?? 0
            state.received[client] = max(previous, id)
            if previous == 0 { state.snapshotBytes = max(state.snapshotBytes, bytes) }
            if previous < state.target && id >= state.target && state.target > 0 {
                state.latencies.append(state.committed.duration(to: now))
            }
        }
    }

    /// The latencies of every client once all have `sequence`; `nil` after `timeout`.
    func wait(for sequence: UInt64, timeout: Duration) async throws -> [Duration]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let done: [Duration]? = state.withLock { state in
                let all = state.received.count == clients && state.received.values.allSatisfy { $0 >= sequence }
                return all ? state.latencies : nil
            }
            if let done { return done }
            try await Task.sleep(for: .microseconds(200))
        }
        return nil
    }
}

/// One SSE client: sends the request, then scans the stream for `id:` lines.
final class SSEClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let index: Int
    let tracker: Tracker
    let port: Int
    private var carry = [UInt8]()
    private var eventBytes = 0

    init(index: Int, tracker: Tracker, port: Int) {
        self.index = index
        self.tracker = tracker
        self.port = port
    }

    func channelActive(context: ChannelHandlerContext) {
        let request = "GET /feeds/list HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        // Lines may be split across reads (and chunk-size lines interleave): keep the last partial line.
        carry.append(contentsOf: buffer.readableBytesView)
        eventBytes += buffer.readableBytes
        var start = 0
        var newest: UInt64 = 0
        for index in carry.indices where carry[index] == 0x0A {
            let line = carry[start..<index]
            if line.starts(with: Array("id: ".utf8)), let id = UInt64(String(decoding: line.dropFirst(4), as: UTF8.self)) {
                newest = max(newest, id)
            }
            start = index + 1
        }
        carry.removeFirst(start)
        if newest > 0 {
            tracker.received(id: newest, client: self.index, bytes: eventBytes)
            eventBytes = 0
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// A process's resident memory and CPU time, from /proc.
struct ProcessStats {
    var rssKiB = 0
    var cpuSeconds = 0.0

    init(pid: Int32) {
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) {
            rssKiB = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Fields 14 and 15 (utime, stime) are at 11 and 12 after the command name.
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
        }
    }
}
