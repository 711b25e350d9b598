import Foundation
import Testing
import TweetieDB
@testable import TweetieReplication
import TweetieSync
import TweetieTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Faults on either side, 20 trials each: nothing lost, nothing applied twice, devices identical.
///
/// "Applied twice" is counted on the server: each record a device writes once must have exactly
/// one change row from that device (a retried batch that wrote again would add a row), and on the
/// devices: each must hold exactly the records written, with the values written.
extension PostgresSuites {
@Suite("Replication faults", .serialized)
struct ReplicationFaultTests {
    static let trials = 20

    /// The server's change rows per key from one device, for keys in `ids`.
    func changeRows(_ fixture: ReplicationFixture, device: UUID, ids: ClosedRange<Int>) throws -> [String: Int] {
        let text = try fixture.psql("""
            SELECT key || ':' || count(*) FROM tweetie.changes
            WHERE collection = 'tweets' AND origin_device = '\(device.uuidString)' AND key::bigint BETWEEN \(ids.lowerBound) AND \(ids.upperBound)
            GROUP BY key
            """)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            counts[String(parts[0])] = Int(parts[1])
        }
        return counts
    }

    /// The connection cut at a random moment of a push (often mid-commit): the retried push
    /// adopts what the server committed and writes the rest once.
    @Test(.timeLimit(.minutes(5))) func aConnectionCutMidPushLosesAndDuplicatesNothing() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let proxy = try TCPProxy(targetPort: fixture.server.port)
        defer { proxy.close() }
        let proxied = try PostgresURL(try PostgresTestServer.url(fixture.databaseURL, port: proxy.port))
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a, batchSize: 4, url: proxied), rb = try fixture.replicator(b)
        try await ra.once()
        var random = SeededRandom(seed: 11)
        var cutsThatFailedAPush = 0
        for trial in 0..<Self.trials {
            let ids = (trial * 100 + 1)...(trial * 100 + 24)
            try await a.write { tx in for id in ids { try tx.add(tweet(Int64(id), "trial \(trial) \(id)")) } }
            let push = Task { try await ra.once() }
            try await Task.sleep(for: .milliseconds(Int(random.next() % 40)))
            proxy.cutAll()
            if case .failure = await push.result { cutsThatFailedAPush += 1 }
            // Until it goes through (the proxy accepts again at once).
            var attempts = 0
            while true {
                attempts += 1
                do { try await ra.once(); break } catch { #expect(attempts < 10, "\(error)"); if attempts >= 10 { return } }
            }
            let device = try await ra.deviceID()
            let rows = try changeRows(fixture, device: device, ids: ids.lowerBound...ids.upperBound)
            #expect(rows.count == ids.count, "trial \(trial): \(ids.count - rows.count) records lost")
            #expect(rows.values.allSatisfy { $0 == 1 }, "trial \(trial): a record was written twice: \(rows.filter { $0.value != 1 })")
        }
        #expect(cutsThatFailedAPush > 0, "no cut ever interrupted a push: the test did not test anything")
        try await rb.once()
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
        #expect(try await b.read { try $0.count(Tweet.self) } == Self.trials * 24)
    }

    /// PostgreSQL restarted with `-m immediate` while two devices push and pull continuously.
    @Test(.timeLimit(.minutes(5))) func aServerRestartedMidPushAndPullLosesAndDuplicatesNothing() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        guard fixture.server.clusterDirectory != nil else {
            print("skipped: the PostgreSQL server is not one this test may restart (TWEETIE_POSTGRES_CLUSTER is not set)")
            return
        }
        let a = try fixture.store(), b = try fixture.store()
        let ra = try fixture.replicator(a, batchSize: 5), rb = try fixture.replicator(b, batchSize: 5)
        try await ra.once()
        try await rb.once()
        let runA = Task { try await ra.run() }, runB = Task { try await rb.run() }
        try await Task.sleep(for: .milliseconds(300))
        defer { runA.cancel(); runB.cancel() }
        var random = SeededRandom(seed: 12)
        for trial in 0..<Self.trials {
            let ids = (trial * 100 + 1)...(trial * 100 + 10)
            try await a.write { tx in for id in ids { try tx.add(tweet(Int64(id), "a \(trial) \(id)")) } }
            try await b.write { tx in for id in ids { try tx.add(tweet(Int64(50_000 + id), "b \(trial) \(id)")) } }
            try await Task.sleep(for: .milliseconds(Int(random.next() % 60)))
            try fixture.server.restart(mode: "immediate")
        }
        // Both follow until they hold everything.
        let expected = Self.trials * 20
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let counts = (try await a.read { try $0.count(Tweet.self) }, try await b.read { try $0.count(Tweet.self) })
            if counts == (expected, expected) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        runA.cancel(); runB.cancel()
        _ = await runA.result; _ = await runB.result
        #expect(try await a.read { try $0.count(Tweet.self) } == expected)
        #expect(try ReplicationFixture.contents(of: a) == (try ReplicationFixture.contents(of: b)))
        for (replicator, offset) in [(ra, 0), (rb, 50_000)] {
            let rows = try changeRows(fixture, device: try await replicator.deviceID(), ids: (offset + 1)...(offset + Self.trials * 100))
            #expect(rows.count == Self.trials * 10 && rows.values.allSatisfy { $0 == 1 }, "\(rows.filter { $0.value != 1 })")
        }
    }

    /// `tweetie-replicate once` SIGKILLed at random moments (between a server commit and the
    /// local cursor write among them), then run again: every record arrives once.
    @Test(.timeLimit(.minutes(8))) func aDeviceKilledMidPushLosesAndDuplicatesNothing() async throws {
        guard let fixture = try await ReplicationFixture.make() else { return }
        let work = TemporaryDirectory("replicate-kill")
        let path = work.sub("device")
        do {
            let store = try TweetieDatabase.open(at: path, additionalCollections: Replicator.metadataCollections)
            try await store.write { tx in for id in 1...(Self.trials * 30) { try tx.add(tweet(Int64(id), "killed \(id)")) } }
            store.close()
        }
        let replicate = ChildProcess.builtProduct("tweetie-replicate")
        var random = SeededRandom(seed: 13)
        var killed = 0
        for _ in 0..<Self.trials {
            let process = SpawnedProcess()
            process.executableURL = replicate
            process.arguments = ["once", "--db", path, "--postgres", fixture.databaseURL, "--batch", "7"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(20_000 + random.next() % 400_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()
        }
        #expect(killed > 0, "no run was killed: the test did not test anything")
        let finished = try ChildProcess.run(replicate, ["once", "--db", path, "--postgres", fixture.databaseURL])
        #expect(finished.status == 0, "\(finished.stderr)")
        let store = try TweetieDatabase.open(at: path, additionalCollections: Replicator.metadataCollections)
        defer { store.close() }
        let device = try await fixture.replicator(store).deviceID()
        let rows = try changeRows(fixture, device: device, ids: 1...(Self.trials * 30))
        #expect(rows.count == Self.trials * 30, "\(Self.trials * 30 - rows.count) records lost")
        #expect(rows.values.allSatisfy { $0 == 1 }, "written twice: \(rows.filter { $0.value != 1 })")
        let other = try fixture.store()
        try await fixture.replicator(other).once()
        #expect(try ReplicationFixture.contents(of: other) == (try ReplicationFixture.contents(of: store)))
        let verified = try ChildProcess.run(ChildProcess.builtProduct("tweetie-db"), ["verify", "--db", path])
        #expect(verified.status == 0, "\(verified.stderr)")
    }
}
}
