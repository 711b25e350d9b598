import ArgumentParser
import Foundation
import TweetieDB
import TweetieSync

/// `tweetie-torture writer`: commits an endless (or timed) stream of write transactions and
/// acknowledges each one on stdout after its commit returns.
struct WriterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "writer",
        abstract: "Commit a stream of write transactions, printing an intent line before and an ack line after each commit.",
        discussion: "Lines: 'ready <last sequence>', then per transaction 'intent <op> <id>=<checksum|->,… <txsum>' and, once the commit returned, 'ack <sequence> <op> <id>=<checksum|->,… <txsum>'; 'done <commits>' on a timed exit. Each line is written with write(2), unbuffered. With --async-writers N, N tasks each commit their own stream with `await store.write` (their writes share group commits); task i owns the ids from --id-base + i × 1,000,000, so every line's ids name its task, and each task prints an ack only after its intent.")

    @Option(help: "The database directory (created when missing).")
    var db: String

    @Option(help: "What a commit flushes: full, no-meta-sync or no-sync.")
    var durability: DurabilityArgument = .full

    @Option(help: "The random seed of the operation mix.")
    var seed: UInt64 = 1

    @Option(name: .customLong("id-base"), help: "The first id of this writer's own range (the range holds 1,000,000 ids).")
    var idBase: Int64 = 1_000_000

    @Option(name: .customLong("shared-ids"), help: "Ids 1…N are shared by every writer and overwritten with update policy .all.")
    var sharedIDs: Int = 0

    @Option(name: .customLong("async-writers"), help: "Commit from this many concurrent tasks with `await store.write` (group commit) instead of one synchronous `store.write` loop; 0 (the default) runs the synchronous loop.")
    var asyncWriters: Int = 0

    @Option(help: "Stop after this many seconds (default: run until killed).")
    var seconds: Double?

    @Option(name: .customLong("map-size"), help: "The initial map size in bytes.")
    var mapSize: Int = 1 << 20

    @Option(help: "The tag written into every tweet's text, identifying this writer.")
    var tag: String = "w"

    @Option(name: .customLong("max-records"), help: "Deletions dominate once the writer's own range holds this many tweets.")
    var maxRecords: Int = 300

    @Option(name: .customLong("inject-fault"), help: ArgumentHelp(
        "Misbehave on purpose, to show that the crash checker catches it: none, early-ack (acknowledge, wait 30 ms, then commit) or split-commit (commit a transaction in two halves, 30 ms apart).",
        visibility: .hidden))
    var fault: WriterFault = .none

    func validate() throws {
        if sharedIDs < 0 || sharedIDs >= Int(idBase) { throw ValidationError("--shared-ids must be between 0 and --id-base - 1.") }
        if idBase < 1 { throw ValidationError("--id-base must be positive.") }
        if maxRecords < 10 { throw ValidationError("--max-records must be at least 10.") }
        if !(0...64).contains(asyncWriters) { throw ValidationError("--async-writers must be between 0 and 64.") }
        if asyncWriters > 0 && sharedIDs > 0 {
            throw ValidationError("--shared-ids needs the synchronous writer: with --async-writers the tasks' ids must be disjoint, so that the checker can tell their transactions apart.")
        }
    }

    func run() async throws {
        if asyncWriters > 0 { try await runAsyncWriters() } else { try runSynchronously() }
    }

    /// One synchronous `store.write` after another, on this thread.
    private func runSynchronously() throws {
        let store = try openStore()
        defer { store.close() }
        var workload = try WriterWorkload(store: store, idBase: idBase, sharedIDs: sharedIDs, seed: seed, tag: tag, maxRecords: maxRecords)
        Out.line("ready \(try store.read { try $0.lastChangeSequence() })")
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var commits = 0
        while deadline.map({ Date() < $0 }) ?? true {
            let plan = workload.nextPlan()
            Out.line(AckLine(kind: .intent, sequence: 0, op: plan.op, items: plan.items).text)
            let sequence: UInt64
            do {
                switch fault {
                case .none:
                    sequence = try commit(plan.actions, to: store)
                    Out.line(AckLine(kind: .ack, sequence: sequence, op: plan.op, items: plan.items).text)
                case .earlyAck:
                    let next = try store.read { try $0.lastChangeSequence() } + 1
                    Out.line(AckLine(kind: .ack, sequence: next, op: plan.op, items: plan.items).text)
                    usleep(30_000)
                    sequence = try commit(plan.actions, to: store)
                case .splitCommit:
                    let half = max(1, plan.actions.count / 2)
                    _ = try commit(Array(plan.actions[..<half]), to: store)
                    usleep(30_000)
                    sequence = half < plan.actions.count ? try commit(Array(plan.actions[half...]), to: store) : try store.read { try $0.lastChangeSequence() }
                    Out.line(AckLine(kind: .ack, sequence: sequence, op: plan.op, items: plan.items).text)
                }
            } catch {
                throw TortureError("writer commit failed in \(db) (op \(plan.op)): \(error)")
            }
            workload.didCommit(plan)
            commits += 1
        }
        Out.line("done \(commits) map \(store.info().mapSize)")
    }

    /// `asyncWriters` tasks, each with its own id range and workload, commit through
    /// `await store.write` until the deadline (or the kill), so that their writes queue on the
    /// store's writer thread and share group commits.
    private func runAsyncWriters() async throws {
        let store = try openStore()
        defer { store.close() }
        var workloads: [WriterWorkload] = []
        for lane in 0..<asyncWriters {
            workloads.append(try WriterWorkload(store: store, idBase: idBase + Int64(lane) * WriterCommand.laneWidth, sharedIDs: 0,
                                                seed: seed &+ UInt64(lane) &* 104_729, tag: "\(tag)l\(lane)", maxRecords: maxRecords))
        }
        let ready = try await store.read { try $0.lastChangeSequence() }
        Out.line("ready \(ready)")
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        let (db, fault) = (self.db, self.fault)
        let commits = try await withThrowingTaskGroup(of: Int.self) { group in
            for laneWorkload in workloads {
                group.addTask {
                    var workload = laneWorkload
                    var commits = 0
                    while deadline.map({ Date() < $0 }) ?? true {
                        let plan = workload.nextPlan()
                        Out.line(AckLine(kind: .intent, sequence: 0, op: plan.op, items: plan.items).text)
                        let actions = plan.actions
                        do {
                            switch fault {
                            case .none:
                                let sequence = try await store.write { tx in try WriterCommand.apply(actions, in: tx) }
                                Out.line(AckLine(kind: .ack, sequence: sequence, op: plan.op, items: plan.items).text)
                            case .earlyAck:
                                // A guess at the sequence: other tasks may commit first, which the checker also catches.
                                let guess = try await store.read { try $0.lastChangeSequence() } + 1
                                Out.line(AckLine(kind: .ack, sequence: guess, op: plan.op, items: plan.items).text)
                                try await Task.sleep(nanoseconds: 30_000_000)
                                _ = try await store.write { tx in try WriterCommand.apply(actions, in: tx) }
                            case .splitCommit:
                                let half = max(1, actions.count / 2)
                                let (first, second) = (Array(actions[..<half]), Array(actions[half...]))
                                var sequence = try await store.write { tx in try WriterCommand.apply(first, in: tx) }
                                try await Task.sleep(nanoseconds: 30_000_000)
                                if !second.isEmpty { sequence = try await store.write { tx in try WriterCommand.apply(second, in: tx) } }
                                Out.line(AckLine(kind: .ack, sequence: sequence, op: plan.op, items: plan.items).text)
                            }
                        } catch {
                            throw TortureError("writer commit failed in \(db) (op \(plan.op)): \(error)")
                        }
                        workload.didCommit(plan)
                        commits += 1
                    }
                    return commits
                }
            }
            return try await group.reduce(0, +)
        }
        Out.line("done \(commits) map \(store.info().mapSize)")
    }

    /// The database, opened as the options say.
    private func openStore() throws -> Store {
        do {
            return try TortureDatabase.open(db, durability: durability.value, mapSize: mapSize)
        } catch {
            throw TortureError("writer cannot open \(db): \(error)")
        }
    }

    /// How many ids each async task owns, from `--id-base + task × laneWidth`.
    static let laneWidth: Int64 = 1_000_000

    /// Applies `actions` inside a write transaction; returns the change-log sequence the
    /// transaction's entry gets (appended after the body, in the same transaction).
    private static func apply(_ actions: [WritePlan.Action], in tx: StoreWriter) throws -> UInt64 {
        for action in actions {
            switch action {
            case .insert(let tweet): try tx.add(tweet, update: .error)
            case .overwrite(let tweet): try tx.add(tweet, update: .all)
            case .delete(let id):
                guard try tx.delete(Tweet.self, key: id) else {
                    throw TortureError("tweet \(id) to delete is missing: the writer's view of its range is wrong")
                }
            }
        }
        return try tx.lastChangeSequence() + 1
    }

    /// Commits `actions` in one write transaction; returns its change-log sequence.
    private func commit(_ actions: [WritePlan.Action], to store: Store) throws -> UInt64 {
        try store.write { tx in try WriterCommand.apply(actions, in: tx) }
    }
}
