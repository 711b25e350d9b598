import Foundation
import Testing
import TweetieTestSupport

@Suite("tweetie-torture crash and stress (short versions)", .serialized)
struct CrashSafetyTests {
    @Test(arguments: ["full", "no-meta-sync", "no-sync"])
    func killedWritersLoseNothingAcknowledged(durability: String) throws {
        let dir = TemporaryDirectory("torture-crash", create: false)
        let db = dir.path
        defer { dir.remove() }
        let result = try Torture.run(["crash", "--trials", "15", "--durability", durability, "--seed", "\(durability.count)",
                                      "--db", db, "--fresh-every", "8", "--victim-percent", "30", "--format", "json"],
                                     // A hang guard, not a speed check: under a loaded machine (the whole suite and
                                     // a build on 2 cores) one campaign took over 120 s.
                                     timeout: 360)
        let summary = try JSONDecoder().decode(CrashSummary.self, from: result.stdout)
        #expect(result.status == 0, "\(summary.failures.joined(separator: "\n")) \(result.stderr)")
        #expect(summary.failures.isEmpty)
        #expect(summary.trials == 15)
        #expect(summary.writerKills == 15)  // every trial ends by killing its writer
        #expect(summary.ackedTransactionsChecked > 0)
        #expect(summary.readerKills + summary.feedKills + summary.observerKills > 0)
    }

    /// Four tasks in the writer process commit with `await store.write`, so their writes share
    /// group commits (one LMDB transaction, a nested one per write). Killed at random, every
    /// acknowledged write is present with its own change-log entry, and each write in flight
    /// (several may be in the group being committed) is present in full or absent in full.
    @Test func killedAsyncWritersInGroupCommitsLoseNothingAcknowledged() throws {
        let dir = TemporaryDirectory("torture-crash-async", create: false)
        defer { dir.remove() }
        let result = try Torture.run(["crash", "--trials", "15", "--async-writers", "4", "--seed", "4", "--db", dir.path,
                                      "--fresh-every", "8", "--victim-percent", "30", "--format", "json"], timeout: 360)
        let summary = try JSONDecoder().decode(CrashSummary.self, from: result.stdout)
        #expect(result.status == 0, "\(summary.failures.joined(separator: "\n")) \(result.stderr)")
        #expect(summary.failures.isEmpty)
        #expect(summary.trials == 15 && summary.writerKills == 15 && summary.asyncWriters == 4)
        #expect(summary.ackedTransactionsChecked > 0)
        #expect(summary.inFlightPresent + summary.inFlightAbsent > 0)
        // Writes did share commits: fewer LMDB transactions than change-log entries.
        #expect(summary.asyncTransactions > 0 && summary.asyncTransactions < summary.asyncLogEntries,
                "\(summary.asyncLogEntries) log entries in \(summary.asyncTransactions) transactions")
    }

    /// With async writers, a task that commits one acknowledged transaction as two awaited writes
    /// is caught: the first half's change-log entry matches no acknowledged or in-flight
    /// transaction.
    @Test func anAsyncWriterThatSplitsATransactionIsCaught() throws {
        let result = try Torture.run(["crash", "--trials", "6", "--async-writers", "3", "--victim-percent", "0",
                                      "--writer-fault", "split-commit", "--format", "json"])
        let summary = try JSONDecoder().decode(CrashSummary.self, from: result.stdout)
        #expect(result.status == 1)
        #expect(!summary.failures.isEmpty)
        #expect(summary.failures.allSatisfy { $0.contains("matches neither an ack nor a transaction in flight") || $0.contains("do not match") })
    }

    /// A writer that acknowledges before its commit is caught: killed in between, its ack has
    /// no transaction in the database.
    @Test func aWriterThatAcknowledgesEarlyIsCaught() throws {
        let result = try Torture.run(["crash", "--trials", "8", "--victim-percent", "0", "--writer-fault", "early-ack", "--format", "json"])
        let summary = try JSONDecoder().decode(CrashSummary.self, from: result.stdout)
        #expect(result.status == 1)
        #expect(summary.failures.contains { $0.contains("but the last ack is") })
    }

    /// A writer that commits one acknowledged transaction as two is caught: killed in between,
    /// half a transaction is in the database; otherwise its sequences skip.
    @Test func aTransactionCommittedInTwoHalvesIsCaught() throws {
        let result = try Torture.run(["crash", "--trials", "8", "--victim-percent", "0", "--writer-fault", "split-commit", "--format", "json"])
        let summary = try JSONDecoder().decode(CrashSummary.self, from: result.stdout)
        #expect(result.status == 1)
        #expect(!summary.failures.isEmpty)
        #expect(summary.failures.allSatisfy { $0.contains("not consecutive") || $0.contains("in-flight") || $0.contains("change-log entry") })
    }

    @Test func shortStressLosesNoUpdateAndObserversConverge() throws {
        let dir = TemporaryDirectory("torture-stress", create: false)
        let db = dir.path
        defer { dir.remove() }
        // The default file-size bound (4× a compacted copy) applies: see RELIABILITY.md, "The file-size
        // bound". It depends on how long readers stay in their transactions, i.e. on speed: under a
        // sanitizer (make test-sanitize sets ASAN_OPTIONS / TSAN_OPTIONS) every process runs several
        // times slower, a ThreadSanitizer run saw an 11.6× file, so there the bound is loosened to 40×.
        // A machine loaded far past its cores does the same to the observers' read transactions (a
        // stranger's `make test` at load 18 on 2 cores saw 5.2×), so above 3 runnable tasks per core
        // (the 1-minute load average) the bound is 8×.
        let sanitized = ["ASAN_OPTIONS", "TSAN_OPTIONS"].contains { ProcessInfo.processInfo.environment[$0] != nil }
        let overloaded = ProcessInfo.processInfo.loadAverage1m > 3 * Double(ProcessInfo.processInfo.activeProcessorCount)
        let bound: Double = sanitized ? 40 : overloaded ? 8 : 4
        let result = try Torture.run(["stress", "--seconds", "5", "--writers", "2", "--observers", "2", "--db", db, "--format", "json",
                                      "--max-file-ratio", "\(Int(bound))"])
        let summary = try JSONDecoder().decode(StressSummary.self, from: result.stdout)
        #expect(result.status == 0, "\(summary.failures.joined(separator: "\n")) \(result.stderr)")
        #expect(summary.failures.isEmpty)
        #expect(summary.commitsPerWriter.count == 2 && summary.commitsPerWriter.allSatisfy { $0 > 0 })
        #expect(summary.commits == UInt64(summary.commitsPerWriter.reduce(0, +)) + 1)  // + the seeding commit
        #expect(summary.sharedOverwrites > 0)
        #expect(summary.observersChecked.count == 2)
        #expect(summary.mapSizeBefore == 1 << 20)
        #expect(summary.fileSizeAfter > summary.fileSizeBefore && summary.compactedSize > 0)
        #expect(summary.maxFileRatio == bound)
        #expect(summary.usedSizeAfter > 0 && summary.usedSizeAfter <= summary.fileSizeAfter)
        #expect(Double(summary.usedSizeAfter) <= summary.maxFileRatio * Double(summary.compactedSize))
        // The growth time series: one sample per second while the writers ran, the milestones, the readers.
        let growth = try #require(summary.growth)
        #expect(growth.samples.count >= 5 && growth.polls > growth.samples.count)
        #expect(growth.milestones.map(\.percent) == [10, 25, 50, 75, 100])
        #expect(zip(growth.samples, growth.samples.dropFirst()).allSatisfy { $0.fileSize <= $1.fileSize && $0.lastTransaction <= $1.lastTransaction })
        let last = try #require(growth.samples.last)
        #expect(last.fileSize > summary.fileSizeBefore && last.fileSize <= summary.fileSizeAfter)
        #expect(last.usedPages * growth.pageSize <= last.fileSize && last.freePages < last.usedPages)
        #expect(UInt64(last.lastTransaction) > summary.commits)  // every commit is an LMDB transaction, plus the setup ones
    }

    @Test func stressRefusesAnExistingDatabase() throws {
        let dir = TemporaryDirectory("torture-exists", create: false)
        let db = dir.path
        try FileManager.default.createDirectory(atPath: db, withIntermediateDirectories: true)
        defer { dir.remove() }
        let result = try Torture.run(["stress", "--seconds", "1", "--db", db])
        #expect(result.status != 0)
        #expect(result.stderr.contains("already exists"))
    }
}

extension ProcessInfo {
    /// The 1-minute load average (/proc/loadavg), 0 when it cannot be read.
    var loadAverage1m: Double {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}
