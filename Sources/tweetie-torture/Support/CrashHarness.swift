import Foundation
import TweetieDB
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// The crash-safety harness: kills writers, readers and observers at random moments and checks,
/// after each kill, that every acknowledged transaction is present in full, that the one in-flight
/// transaction is all-or-nothing, that `verify()` passes and that reader slots are reclaimed.
final class CrashHarness {
    enum Victim: String, CaseIterable { case writer, reader, feed, observer }

    let database: String
    let durability: DurabilityArgument
    let seed: UInt64
    let freshEvery: Int
    let victimPercent: Int
    let killWindow: ClosedRange<Int>
    let writerFault: WriterFault
    /// 0: one synchronous writer; N: a writer process whose N tasks commit with `await store.write`.
    let asyncWriters: Int
    let verbose: Bool
    // Internal rather than private: CrashHarness+AsyncWriters.swift checks against them too.
    var summary: CrashSummary
    var model = AckModel()
    /// LMDB's last transaction id at the previous async-writers check (`nil` after a fresh
    /// database or a failure): how many transactions carried the log entries since then.
    var transactionAtLastCheck: Int?
    private var rng: SplitMix64
    private var nextVictim = 0

    init(database: String, durability: DurabilityArgument, seed: UInt64, freshEvery: Int, victimPercent: Int,
         killWindow: ClosedRange<Int>, writerFault: WriterFault = .none, asyncWriters: Int = 0, verbose: Bool) {
        self.database = database
        self.durability = durability
        self.seed = seed
        self.freshEvery = freshEvery
        self.victimPercent = victimPercent
        self.killWindow = killWindow
        self.writerFault = writerFault
        self.asyncWriters = asyncWriters
        self.verbose = verbose
        rng = SplitMix64(seed: seed)
        summary = CrashSummary(durability: durability.rawValue, asyncWriters: asyncWriters)
    }

    func run(trials: Int) {
        for trial in 0..<trials {
            if trial % freshEvery == 0 {
                try? FileManager.default.removeItem(atPath: database)
                model.reset()
                transactionAtLastCheck = nil
                summary.freshDatabases += 1
            }
            let failuresBefore = summary.failures.count
            var victim = Victim.writer
            // A reader-side victim needs a database with something in it.
            if model.lastSequence > 0, rng.int(in: 1...100) <= victimPercent {
                victim = [Victim.reader, .feed, .observer][nextVictim % 3]
                nextVictim += 1
                if victim == .feed && Executables.tweetieDB == nil { victim = .reader }
            }
            do {
                switch victim {
                case .writer: try writerTrial(trial)
                case .reader, .feed, .observer: try readerTrial(trial, victim: victim)
                }
            } catch {
                fail(trial, "\(error)")
            }
            summary.trials += 1
            if summary.failures.count > failuresBefore { resynchronize() }
            if verbose || summary.failures.count > failuresBefore {
                let status = summary.failures.count > failuresBefore ? "FAILED" : "ok"
                Out.error("trial \(trial) (\(victim.rawValue)): \(status); sequence \(model.lastSequence), \(model.records.count) records")
            }
        }
        summary.finalRecords = model.records.count
        summary.finalSequence = model.lastSequence
    }

    /// After a failure the model no longer describes the database: rebuild it from the database,
    /// so that the next trials are judged on their own.
    private func resynchronize() {
        transactionAtLastCheck = nil
        guard let store = try? TortureDatabase.open(database, readOnly: true) else { model.reset(); return }
        defer { store.close() }
        model.reset()
        if let (records, lastSequence) = try? TortureDatabase.contents(of: store) {
            for (id, checksum) in records { model.apply([WrittenItem(id: id, checksum: checksum)], sequence: 0) }
            model.lastSequence = lastSequence
        }
    }

    func fail(_ trial: Int, _ message: String) {
        summary.failures.append("trial \(trial) [\(durability.rawValue)]: \(message)")
    }

    private func startWriter(_ trial: Int) throws -> ChildProcess {
        try ChildProcess(executable: Executables.torture, arguments: [
            "writer", "--db", database, "--durability", durability.rawValue,
            "--seed", "\(seed &+ UInt64(trial) &* 7919)", "--tag", "t\(trial)", "--inject-fault", writerFault.rawValue,
            "--async-writers", "\(asyncWriters)",
        ])
    }

    private func sleepRandomKillDelay() {
        usleep(UInt32(rng.int(in: killWindow)) * 1000)
    }

    // MARK: Writer kills

    private func writerTrial(_ trial: Int) throws {
        let writer = try startWriter(trial)
        sleepRandomKillDelay()
        writer.kill()
        let status = writer.wait()
        summary.writerKills += 1
        if status.signal != SIGKILL {
            fail(trial, "the writer exited by itself (status \(status.code.map(String.init) ?? "?")) before the kill: \(writer.standardError)")
        }
        try checkAfterWriterDeath(trial, writer: writer)
    }

    /// Checks the database against the model plus the writer's acks; updates the model.
    private func checkAfterWriterDeath(_ trial: Int, writer: ChildProcess) throws {
        if asyncWriters > 0 { return try checkAfterAsyncWritersDeath(trial, writer: writer) }
        var acks: [AckLine] = []
        var pendingIntent: AckLine?
        var ready: UInt64?
        for line in writer.lines {
            if line.hasPrefix("ready "), let value = UInt64(line.dropFirst(6)) { ready = value; continue }
            guard let parsed = AckLine(parsing: line) else { continue }
            switch parsed.kind {
            case .intent:
                pendingIntent = parsed
            case .ack:
                guard let intent = pendingIntent, intent.items == parsed.items, intent.op == parsed.op else {
                    fail(trial, "ack \(parsed.sequence) does not match the intent printed before it")
                    return
                }
                acks.append(parsed)
                pendingIntent = nil
            }
        }
        if let ready, ready != model.lastSequence {
            fail(trial, "the writer started at sequence \(ready), but the model (from earlier acks and checks) is at \(model.lastSequence)")
            return
        }
        let firstSequence = model.lastSequence + 1
        var expectedRecords = model
        for (offset, ack) in acks.enumerated() {
            guard ack.sequence == firstSequence + UInt64(offset) else {
                fail(trial, "ack sequences are not consecutive: expected \(firstSequence + UInt64(offset)), got \(ack.sequence)")
                return
            }
            expectedRecords.apply(ack.items, sequence: ack.sequence)
        }

        guard let store = try openAfterWriterDeath(trial, acks: acks.count) else { return }
        defer { store.close() }

        let (records, lastSequence) = try TortureDatabase.contents(of: store)
        let acked = expectedRecords.lastSequence
        var inFlightCommitted = false
        if lastSequence == acked {
            if let difference = describeDifference(records, expectedRecords.records) {
                fail(trial, "after \(acks.count) acks (last sequence \(acked)), the records differ from the acknowledged state: \(difference)")
            }
            if pendingIntent != nil { summary.inFlightAbsent += 1 }
        } else if lastSequence == acked + 1, let intent = pendingIntent {
            let withIntent = expectedRecords.applying(intent.items)
            if let difference = describeDifference(records, withIntent) {
                let partial = describeDifference(records, expectedRecords.records)
                fail(trial, "change-log entry \(lastSequence) of the in-flight transaction is present but its records are not exactly those of the transaction: \(difference) (vs the acked state: \(partial ?? "equal"))")
            }
            inFlightCommitted = true
            summary.inFlightPresent += 1
        } else {
            fail(trial, "the change log ends at \(lastSequence) but the last ack is \(acked) (in-flight transaction: \(pendingIntent == nil ? "none" : "one"))")
            return
        }

        // Every acked transaction (and a committed in-flight one) has its own change-log entry.
        var logged = acks.map { (sequence: $0.sequence, items: $0.items) }
        if inFlightCommitted, let intent = pendingIntent { logged.append((sequence: lastSequence, items: intent.items)) }
        if let first = logged.first {
            let slice = try store.read { try $0.changeLog(after: first.sequence - 1) }
            let entries = Dictionary(slice.entries.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
            var before = model
            for item in logged {
                guard let entry = entries[item.sequence] else {
                    if !slice.isTruncated { fail(trial, "change-log entry \(item.sequence) is missing") }
                    before.apply(item.items, sequence: item.sequence)
                    continue
                }
                let expected = expectedChanges(item.items, before: before)
                let actual = loggedChanges(entry)
                if actual != expected || !entry.unlistedCollections.isEmpty {
                    fail(trial, "change-log entry \(item.sequence) lists \(actual.count) change(s) that do not match its transaction's \(expected.count)")
                }
                before.apply(item.items, sequence: item.sequence)
            }
        }

        summary.ackedTransactionsChecked += acks.count
        model = expectedRecords
        if inFlightCommitted, let intent = pendingIntent { model.apply(intent.items, sequence: lastSequence) }
    }

    /// Opens the database read-only after the writer's death and checks what every kill must
    /// leave: no reader slot held, `verify()` clean. `nil` when there is nothing to check (the
    /// writer died creating the database, before any ack) or the open failed (recorded).
    func openAfterWriterDeath(_ trial: Int, acks: Int) throws -> Store? {
        guard FileManager.default.fileExists(atPath: database + "/data.mdb") else {
            if model.lastSequence == 0 && acks == 0 { summary.interruptedCreations += 1; return nil }
            fail(trial, "data.mdb is gone after \(acks) acks")
            return nil
        }
        let store: Store
        do {
            store = try TortureDatabase.open(database, readOnly: true)
        } catch let error as StoreError where model.lastSequence == 0 && acks == 0 && (error.code == .notFound || error.code == .notADatabase) {
            // Killed while creating the database, before its first commit: data.mdb absent, empty,
            // incomplete, or a complete LMDB file without the store's catalog yet ("holds no TweetieDB
            // database yet"). A read-only open refuses all four; the next writer completes it.
            summary.interruptedCreations += 1
            return nil
        } catch {
            fail(trial, "the database does not open after the kill: \(error)")
            return nil
        }
        let readers = store.info().readersInUse
        if readers != 0 { fail(trial, "\(readers) reader slot(s) still held after reopening (stale slots not reclaimed)") }
        do {
            let report = try store.verify()
            for problem in report.problems { fail(trial, "verify: \(problem)") }
        } catch {
            store.close()
            throw error
        }
        return store
    }

    struct KeyedChange: Hashable {
        var key: [UInt8]
        var kind: ChangeKind
    }

    /// The tweets' changes a change-log entry lists.
    func loggedChanges(_ entry: ChangeLogEntry) -> Set<KeyedChange> {
        Set((entry.changes[Tweet.collectionName] ?? []).map { KeyedChange(key: $0.key, kind: $0.kind) })
    }

    func expectedChanges(_ items: [WrittenItem], before: AckModel) -> Set<KeyedChange> {
        Set(items.map { item in
            var encoder = KeyEncoder()
            encoder.append(item.id)
            let kind: ChangeKind = item.checksum == nil ? .deleted : (before.records[item.id] == nil ? .inserted : .modified)
            return KeyedChange(key: encoder.bytes, kind: kind)
        })
    }

    func describeDifference(_ actual: [Int64: UInt64], _ expected: [Int64: UInt64]) -> String? {
        let missing = expected.keys.filter { actual[$0] == nil }.sorted()
        let extra = actual.keys.filter { expected[$0] == nil }.sorted()
        let changed = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
        if missing.isEmpty && extra.isEmpty && changed.isEmpty { return nil }
        return "\(missing.count) missing \(missing.prefix(5)), \(extra.count) unexpected \(extra.prefix(5)), \(changed.count) with other contents \(changed.prefix(5))"
    }

    // MARK: Reader, feed and observer kills

    private func startVictim(_ victim: Victim) throws -> (ChildProcess, readyPrefix: String) {
        switch victim {
        case .reader:
            return (try ChildProcess(executable: Executables.torture, arguments: ["reader", "--db", database, "--hold-ms", "2"]), "ready")
        case .observer:
            return (try ChildProcess(executable: Executables.torture, arguments: ["observer", "--db", database]), "state ")
        case .feed, .writer:
            return (try ChildProcess(executable: Executables.tweetieDB!, arguments: ["feed", "list", "--follow", "--sections", "day", "--db", database]), "{")
        }
    }

    /// A writer runs; a reader-side process is killed mid-read; the writer must keep committing
    /// and the dead process's reader slot must be reclaimed. Then the writer is killed and
    /// everything is checked as in a writer trial.
    private func readerTrial(_ trial: Int, victim: Victim) throws {
        let writer = try startWriter(trial)
        defer { if !writer.hasExited { writer.kill(); writer.wait() } }
        guard writer.waitForLine(startingWith: "ready", seconds: 20) else {
            fail(trial, "the writer did not start: \(writer.standardError)")
            return
        }
        let (process, readyPrefix) = try startVictim(victim)
        defer { if !process.hasExited { process.kill(); process.wait() } }
        guard process.waitForLine(startingWith: readyPrefix, seconds: 20) else {
            fail(trial, "the \(victim.rawValue) did not start: \(process.standardError)")
            return
        }
        // Watch from this process with the database open (no reclaim happens at kill time).
        let store = try TortureDatabase.open(database, readOnly: true)
        sleepRandomKillDelay()
        process.kill()
        process.wait()
        switch victim {
        case .reader: summary.readerKills += 1
        case .feed: summary.feedKills += 1
        case .observer: summary.observerKills += 1
        case .writer: break
        }
        let ackedAtKill = writer.lines.filter { $0.hasPrefix("ack ") }.count
        let cleared = try store.clearStaleReaders()
        summary.staleReaderSlotsCleared += cleared
        let held = store.info().readersInUse
        if held != 0 { fail(trial, "\(held) reader slot(s) still held after the \(victim.rawValue) was killed and stale slots were cleared") }
        store.close()
        // The writer continues.
        let deadline = Date().addingTimeInterval(15)
        while writer.lines.filter({ $0.hasPrefix("ack ") }).count < ackedAtKill + 3 {
            if writer.hasExited || Date() > deadline {
                fail(trial, "the writer stopped committing after the \(victim.rawValue) was killed: \(writer.standardError)")
                break
            }
            usleep(2_000)
        }
        writer.kill()
        let status = writer.wait()
        summary.writerKills += 1
        if status.signal != SIGKILL {
            fail(trial, "the writer exited by itself (status \(status.code.map(String.init) ?? "?")): \(writer.standardError)")
        }
        try checkAfterWriterDeath(trial, writer: writer)
    }
}
