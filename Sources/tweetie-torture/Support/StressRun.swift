import Foundation
import TweetieDB
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The multi-process stress run: writers on disjoint ranges plus shared ids, observers in other
/// processes, a 1 MiB initial map; then no lost update, no MDB_READERS_FULL, bounded file size,
/// `verify()` passes, and every observer's applied copy equals a fresh read.
final class StressRun {
    static let feedNow = "2018-12-12T00:00:00Z"

    let database: String
    let seconds: Double
    let writerCount: Int
    let observerCount: Int
    let sharedIDs: Int
    let mapSize: Int
    let seed: UInt64
    private(set) var summary: StressSummary

    init(database: String, seconds: Double, writers: Int, observers: Int, sharedIDs: Int, mapSize: Int, seed: UInt64, maxFileRatio: Double) {
        self.database = database
        self.seconds = seconds
        writerCount = writers
        observerCount = observers
        self.sharedIDs = sharedIDs
        self.mapSize = mapSize
        self.seed = seed
        summary = StressSummary(seconds: seconds, writers: writers, observers: observers, maxFileRatio: maxFileRatio)
    }

    private func fail(_ message: String) { summary.failures.append(message) }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private enum ObserverKind { case inProcess, feed }

    private struct Observer {
        var name: String
        var kind: ObserverKind
        var process: ChildProcess
        var feed = FeedState<TimelineRow>()
    }

    func run() throws {
        // 1. A fresh database with the shared tweets, in a 1 MiB map.
        do {
            let store = try TortureDatabase.open(database, mapSize: mapSize)
            if sharedIDs > 0 {
                try store.write { tx in
                    for id in 1...Int64(sharedIDs) { try tx.add(WorkloadTweets.tweet(id: id, version: 0, tag: "seed"), update: .error) }
                }
            }
            summary.mapSizeBefore = store.info().mapSize
            store.close()
        }
        summary.fileSizeBefore = Self.fileSize(database + "/data.mdb")

        // 2. Observers first, so they see every commit.
        var observers: [Observer] = []
        defer { for observer in observers where !observer.process.hasExited { observer.process.kill(); observer.process.wait() } }
        for index in 0..<observerCount {
            let useFeed = index % 2 == 1 && Executables.tweetieDB != nil
            let process: ChildProcess
            if useFeed {
                process = try ChildProcess(executable: Executables.tweetieDB!, arguments: [
                    "feed", "list", "--follow", "--sections", "day", "--now", Self.feedNow, "--db", database])
            } else {
                process = try ChildProcess(executable: Executables.torture, arguments: ["observer", "--db", database])
            }
            let observer = Observer(name: useFeed ? "feed \(index)" : "observer \(index)", kind: useFeed ? .feed : .inProcess, process: process)
            guard process.waitForLine(startingWith: useFeed ? "{" : "state ", seconds: 30) else {
                throw TortureError("\(observer.name) did not start: \(process.standardError)")
            }
            observers.append(observer)
        }

        // 3. Writers, each for `seconds`, sampled from here (read-only, its own store handle).
        let sampled = try TortureDatabase.open(database, mapSize: mapSize, readOnly: true)
        defer { sampled.close() }
        let sampler = GrowthSampler(store: sampled, dataPath: database + "/data.mdb", runSeconds: seconds)
        for observer in observers { sampler.name(observer.process.pid, as: observer.name) }
        sampler.start()
        defer { sampler.cancel() }  // on an early exit; a no-op after stop()
        var writers: [ChildProcess] = []
        defer { for writer in writers where !writer.hasExited { writer.kill(); writer.wait() } }
        for index in 0..<writerCount {
            writers.append(try ChildProcess(executable: Executables.torture, arguments: [
                "writer", "--db", database, "--durability", "full", "--seed", "\(seed &+ UInt64(index) &* 104_729)",
                "--id-base", "\(Int64(index + 1) * 1_000_000)", "--shared-ids", "\(sharedIDs)",
                "--seconds", "\(seconds)", "--tag", "w\(index)", "--map-size", "\(mapSize)",
            ]))
            sampler.name(writers[index].pid, as: "writer \(index)")
        }
        // Feeds are read while the writers run (their output can be large).
        let deadline = Date().addingTimeInterval(seconds + 120)
        while writers.contains(where: { !$0.hasExited }) {
            if Date() > deadline {
                fail("writers still running \(Int(seconds + 120)) s after the start; killed")
                break
            }
            try drainFeeds(&observers)
            usleep(20_000)
        }
        for writer in writers { writer.wait() }
        summary.growth = sampler.stop()
        if let error = sampler.error { fail("the growth sampler could not read the free list: \(error)") }
        sampled.close()
        var acks: [[AckLine]] = []
        for (index, writer) in writers.enumerated() {
            let status = writer.wait()
            if status.code != 0 { fail("writer \(index) failed (status \(status.code.map(String.init) ?? "signal \(status.signal)")): \(writer.standardError)") }
            if let done = writer.lines.last(where: { $0.hasPrefix("done ") }) {
                summary.writerMapSizes.append(done.split(separator: " ").last.flatMap { Int($0) } ?? 0)
            } else {
                fail("writer \(index) did not finish its run")
            }
            let lines = writer.lines.compactMap { AckLine(parsing: $0) }.filter { $0.kind == .ack }
            acks.append(lines)
            summary.commitsPerWriter.append(lines.count)
        }

        // 4. The database: verify, no lost update, file size.
        let store = try TortureDatabase.open(database, mapSize: mapSize)
        defer { store.close() }
        let report = try store.verify()
        for problem in report.problems { fail("verify: \(problem)") }
        let (records, lastSequence) = try TortureDatabase.contents(of: store)
        summary.commits = lastSequence
        summary.records = records.count
        checkNoLostUpdate(acks: acks, records: records, lastSequence: lastSequence)
        let info = store.info()
        summary.mapSizeAfter = info.mapSize
        summary.fileSizeAfter = Self.fileSize(database + "/data.mdb")
        summary.usedSizeAfter = info.usedBytes
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-torture-compact-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: backup) }
        try store.backup(to: backup, compact: true)
        summary.compactedSize = Self.fileSize(backup + "/data.mdb")
        // The pages LMDB used, not the zeros the store wrote ahead of it (docs/benchmark-findings.md,
        // "Writes and commits"): those are a deliberate step of up to an eighth of the file.
        let ratio = Double(summary.usedSizeAfter) / Double(max(1, summary.compactedSize))
        if ratio > summary.maxFileRatio {
            var why = ""
            if let growth = summary.growth {
                why = "; the oldest reader lagged up to \(growth.maxReaderLag) commits (\(growth.maxReaderLagHolder ?? "no reader")), one read transaction was seen open \(Int(growth.longestReadMilliseconds)) ms (\(growth.longestReadHolder ?? "none")), up to \(growth.maxPinnedPages) free pages were pinned"
            }
            fail("data.mdb uses \(summary.usedSizeAfter) bytes (the file is \(summary.fileSizeAfter)), \(String(format: "%.1f", ratio))× the compacted copy (\(summary.compactedSize) bytes); the bound is \(summary.maxFileRatio)×\(why)")
        }

        // 5. Observers converge to a fresh read.
        let fresh = try TortureDatabase.freshDigest(of: store)
        let freshFeed = try freshFeedSections()
        for index in observers.indices {
            try checkObserver(&observers[index], fresh: fresh, freshFeed: freshFeed)
        }
        for observer in observers {
            observer.process.kill(SIGTERM)
            observer.process.wait()
        }

        // 6. No MDB_READERS_FULL (or any other error) anywhere.
        for (index, writer) in writers.enumerated() where writer.standardError.contains("READERS_FULL") {
            fail("writer \(index) hit MDB_READERS_FULL: \(writer.standardError)")
        }
        for observer in observers {
            let errors = observer.process.standardError
            if errors.contains("READERS_FULL") { fail("\(observer.name) hit MDB_READERS_FULL: \(errors)") }
            else if !errors.isEmpty { fail("\(observer.name) wrote to stderr: \(errors.prefix(500))") }
        }
    }

    private func checkNoLostUpdate(acks: [[AckLine]], records: [Int64: UInt64], lastSequence: UInt64) {
        // Every commit after the seeding one is acknowledged exactly once.
        var sequences = Set<UInt64>()
        for ack in acks.joined() where !sequences.insert(ack.sequence).inserted {
            fail("sequence \(ack.sequence) was acknowledged twice")
        }
        let firstWriterSequence: UInt64 = sharedIDs > 0 ? 2 : 1
        let expectedCount = lastSequence >= firstWriterSequence ? Int(lastSequence - firstWriterSequence + 1) : 0
        if sequences.count != expectedCount || (sequences.min().map { $0 != firstWriterSequence } ?? false) {
            fail("the change log ends at \(lastSequence) but the writers acknowledged \(sequences.count) commits (expected \(expectedCount))")
        }
        // Each writer's own range equals the state its acks describe.
        var expected: [Int64: UInt64] = [:]
        for id in 1...Int64(max(1, sharedIDs)) where sharedIDs > 0 {
            expected[id] = Digest.checksum(WorkloadTweets.tweet(id: id, version: 0, tag: "seed"))
        }
        var lastSharedWrite: [Int64: UInt64] = [:]
        for (index, writerAcks) in acks.enumerated() {
            var model = AckModel()
            for ack in writerAcks {
                let own = ack.items.filter { $0.id > Int64(sharedIDs) }
                model.apply(own, sequence: ack.sequence)
                for item in ack.items where item.id <= Int64(sharedIDs) {
                    summary.sharedOverwrites += 1
                    if ack.sequence > lastSharedWrite[item.id] ?? 0 {
                        lastSharedWrite[item.id] = ack.sequence
                        expected[item.id] = item.checksum
                    }
                }
            }
            let base = Int64(index + 1) * 1_000_000
            for (id, checksum) in model.records {
                guard id >= base, id < base + 1_000_000 else {
                    fail("writer \(index) acknowledged id \(id), outside its range")
                    continue
                }
                expected[id] = checksum
            }
        }
        let missing = expected.filter { records[$0.key] == nil }.count
        let wrong = expected.filter { records[$0.key] != nil && records[$0.key] != $0.value }.map(\.key).sorted()
        let extra = records.keys.filter { expected[$0] == nil }.sorted()
        if missing + wrong.count + extra.count > 0 {
            fail("lost updates: \(missing) acknowledged records missing, \(wrong.count) with contents other than the last acknowledged write \(wrong.prefix(5)), \(extra.count) never acknowledged \(extra.prefix(5))")
        }
    }

    private func drainFeeds(_ observers: inout [Observer]) throws {
        for index in observers.indices where observers[index].kind == .feed {
            for line in observers[index].process.newLines() {
                let message = try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(line.utf8))
                try observers[index].feed.apply(message)
            }
        }
    }

    private func freshFeedSections() throws -> [FeedSection<TimelineRow>]? {
        guard observerCount > 1, let tweetieDB = Executables.tweetieDB else { return nil }
        let once = try ChildProcess(executable: tweetieDB, arguments: ["feed", "list", "--once", "--sections", "day", "--now", Self.feedNow, "--db", database])
        let status = once.wait()
        guard status.code == 0, let line = once.lines.first else {
            throw TortureError("tweetie-db feed list --once failed: \(once.standardError)")
        }
        return try RecordJSON.decoder().decode(FeedMessage<TimelineRow>.self, from: Data(line.utf8)).sections
    }

    private func checkObserver(_ observer: inout Observer, fresh: (sequence: UInt64, count: Int, digest: UInt64), freshFeed: [FeedSection<TimelineRow>]?) throws {
        let deadline = Date().addingTimeInterval(30)
        switch observer.kind {
        case .inProcess:
            var last: [Substring] = []
            while true {
                if let line = observer.process.lines.last(where: { $0.hasPrefix("state ") }) {
                    last = line.split(separator: " ")
                    if last.count == 5, let sequence = UInt64(last[1]), sequence >= fresh.sequence { break }
                }
                if Date() > deadline || observer.process.hasExited { break }
                usleep(10_000)
            }
            guard last.count == 5, UInt64(last[1]) == fresh.sequence else {
                fail("\(observer.name) did not reach sequence \(fresh.sequence) (last state: \(last.joined(separator: " "))) \(observer.process.standardError)")
                return
            }
            if Int(last[2]) != fresh.count || last[3] != Digest.hex(fresh.digest) {
                fail("\(observer.name)'s applied copy (\(last[2]) rows, digest \(last[3])) differs from a fresh read (\(fresh.count) rows, digest \(Digest.hex(fresh.digest)))")
            }
            if last[4] != "0" { fail("\(observer.name) applied \(last[4]) changeset(s) that did not give the delivered results") }
            summary.observersChecked.append("\(observer.name): \(last[2]) rows at sequence \(last[1]), digest \(last[3]) = fresh read")
        case .feed:
            guard let freshFeed else { return }
            while observer.feed.sequence < fresh.sequence, Date() < deadline, !observer.process.hasExited {
                var single = [observer]
                try drainFeeds(&single)
                observer = single[0]
                usleep(10_000)
            }
            let rows = observer.feed.sections.reduce(0) { $0 + $1.rows.count }
            if observer.feed.sequence != fresh.sequence {
                fail("\(observer.name) did not reach sequence \(fresh.sequence) (at \(observer.feed.sequence)) \(observer.process.standardError)")
            } else if observer.feed.sections != freshFeed {
                fail("\(observer.name)'s applied sections (\(rows) rows) differ from a fresh 'feed list --once'")
            } else {
                summary.observersChecked.append("\(observer.name): \(rows) rows in \(observer.feed.sections.count) sections at sequence \(observer.feed.sequence) = fresh feed --once")
            }
        }
    }
}
