import ArgumentParser
import Foundation
import Histogram
import NIOCore
import NIOPosix
import TweetieServe
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
            Start tweetie-serve on the same database first, with --max-clients at least N (it raises its own file-descriptor limit to match; so does this bench, and both say so when the hard limit is too low). Each commit rewrites the text of the list's newest tweet (one row modification); the bench then waits until every client has received that commit's message, or --timeout, and pauses before the next. Reports commit → last client (every client has received it) and commit → each client, p50, p99 and max (HdrHistogram), from the commit's return to the read that carried the message's id; with --server-pid, the server's RSS (after connecting, at the end, and its peak) and CPU time over the commits.
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

    @Option(name: .customLong("source-addresses"), help: "Spread the clients over this many loopback source addresses (127.0.0.1, .2, …): one address has about 28,000 ephemeral ports toward one server port.")
    var sourceAddresses = 1

    @Option(name: .customLong("server-pid"), help: "tweetie-serve's process id, for its RSS and CPU time.")
    var serverPID: Int32?

    @Option(help: "The list, as OWNER/SLUG.")
    var list = ListIdentifier.rxSwift.key

    func validate() throws {
        guard clients >= 1 else { throw ValidationError("--clients must be at least 1, got \(clients).") }
        guard commits >= 1 else { throw ValidationError("--commits must be at least 1, got \(commits).") }
        guard (1...254).contains(sourceAddresses) else { throw ValidationError("--source-addresses must be between 1 and 254, got \(sourceAddresses).") }
    }

    func run() async throws {
        let list: ListIdentifier
        do { list = try ListIdentifier(parsing: self.list) } catch { throw ValidationError(error.description) }
        do {
            try FileDescriptorLimit.raise(toAtLeast: UInt64(clients) + 256)
        } catch {
            throw ValidationError("\(clients) clients need \(clients + 256) file descriptors: \(error)")
        }
        let store: Store
        do { store = try TweetieDatabase.openExisting(at: path).store } catch { throw ValidationError("\(error)") }
        defer { store.close() }
        let query = TimelineTarget.list(list).storedTweets
        guard var tweet = try await store.read({ try $0.fetch(query) }).first else {
            throw ValidationError("the list has no tweets: run tweetie-db sync first")
        }
        let loadBefore = ProcessStats.loadAverage

        let tracker = DeliveryTracker(clients: clients)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connectStart = ContinuousClock.now
        let channels = try await connect(tracker: tracker, group: group)
        // Every client has its snapshot: the stream is established.
        let ready = try await store.read { try $0.lastChangeSequence() }
        tracker.expect(ready)
        guard try await tracker.wait(for: ready, committed: .now, timeout: .seconds(max(timeout, 60))) != nil else {
            throw ValidationError("only \(tracker.reached) of \(clients) clients received the snapshot; is tweetie-serve's --max-clients at least \(clients)?")
        }
        print("connected \(clients) clients in \(connectStart.duration(to: .now)); snapshot \(tracker.snapshotBytes) bytes")
        let before = serverPID.map { ProcessStats(pid: "\($0)") }
        let selfBefore = ProcessStats(pid: "self")

        var last = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var each = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var missed = 0
        let run = UInt32.random(in: 0...UInt32.max)
        let benchStart = ContinuousClock.now
        for round in 0..<commits {
            tweet.text = "tweetie-serve-bench run \(run), commit \(round + 1) of \(commits)"
            let written = tweet
            try await store.write { writer in _ = try writer.add(written, update: .all) }
            let committed = ContinuousClock.now
            let sequence = try await store.read { try $0.lastChangeSequence() }
            tracker.expect(sequence)
            guard let latencies = try await tracker.wait(for: sequence, committed: committed, timeout: .seconds(timeout)) else {
                missed += 1
                print("commit \(round + 1) (sequence \(sequence)): only \(tracker.reached) of \(clients) clients received it within \(timeout) s")
                continue
            }
            for latency in latencies { each.record(UInt64(max(0, latency.inMicroseconds))) }
            last.record(UInt64(max(0, latencies.max()!.inMicroseconds)))
            try await Task.sleep(for: .milliseconds(pause))
        }
        let elapsed = benchStart.duration(to: .now)
        let after = serverPID.map { ProcessStats(pid: "\($0)") }
        let selfAfter = ProcessStats(pid: "self")
        for channel in channels { channel.close(promise: nil) }
        try? await group.shutdownGracefully()

        func ms(_ value: UInt64) -> String { String(format: "%.2f", Double(value) / 1000) }
        print("clients \(clients), commits \(commits) (\(missed) not delivered to every client within \(timeout) s), pause \(pause) ms")
        print("commit → last client:  p50 \(ms(last.valueAtPercentile(50))) ms, p99 \(ms(last.valueAtPercentile(99))) ms, max \(ms(last.max)) ms")
        print("commit → each client:  p50 \(ms(each.valueAtPercentile(50))) ms, p99 \(ms(each.valueAtPercentile(99))) ms, max \(ms(each.max)) ms")
        if let before, let after {
            let cpu = after.cpuSeconds - before.cpuSeconds
            print(String(format: "server: RSS %.1f MiB after connecting, %.1f MiB at the end, peak %.1f MiB; CPU %.2f s over %.2f s (%.0f%% of one core)",
                         Double(before.rssKiB) / 1024, Double(after.rssKiB) / 1024, Double(after.peakRSSKiB) / 1024,
                         cpu, elapsed.seconds, 100 * cpu / elapsed.seconds))
        }
        let selfCPU = selfAfter.cpuSeconds - selfBefore.cpuSeconds
        print(String(format: "bench (the clients and the writer): CPU %.2f s (%.0f%% of one core)", selfCPU, 100 * selfCPU / elapsed.seconds))
        print("load average (1, 5, 15 min): \(loadBefore) before connecting, \(ProcessStats.loadAverage) at the end")
        if missed > 0 { throw ExitCode.failure }
    }

    /// Connects the clients one after another; each sends its request once connected.
    private func connect(tracker: DeliveryTracker, group: MultiThreadedEventLoopGroup) async throws -> [any Channel] {
        var channels: [any Channel] = []
        channels.reserveCapacity(clients)
        for index in 0..<clients {
            let handler = SSEClientHandler(index: index, tracker: tracker, port: port)
            var bootstrap = ClientBootstrap(group: group)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .channelInitializer { $0.pipeline.addHandler(handler) }
            let source = "127.0.0.\(1 + index % sourceAddresses)"
            if sourceAddresses > 1 { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
            do {
                channels.append(try await bootstrap.connect(host: "127.0.0.1", port: port).get())
            } catch {
                for channel in channels { channel.close(promise: nil) }
                throw ValidationError("client \(index + 1) of \(clients) could not connect from \(source) to 127.0.0.1:\(port): \(error)"
                    + (sourceAddresses == 1 && index > 20_000 ? " (out of ephemeral ports? try --source-addresses \(clients / 20_000 + 1))" : ""))
            }
        }
        return channels
    }
}

extension Duration {
    var inMicroseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
