import Foundation
import TweetieDB
import TweetieSync

extension CrashHarness {
    /// Checks the database after the death of a writer whose tasks committed concurrently with
    /// `await store.write` (group commit); updates the model.
    ///
    /// Each task owns its own ids (`WriterCommand.laneWidth` apart), prints an intent before each
    /// write and its ack after, so at the kill each task has at most one transaction in flight, and
    /// several may be in flight in one group. The rules:
    /// - every ack follows its own task's intent, and names a sequence of its own, past the model's
    ///   last sequence and at most the log's last sequence;
    /// - every change-log entry after the model's last sequence belongs to exactly one transaction:
    ///   the ack that named its sequence, or else one in-flight intent whose changes it lists
    ///   exactly (a group's writes commit together or not at all, so any subset of the in-flight
    ///   transactions may be present, each in full);
    /// - the records are the model with those transactions applied in sequence order.
    func checkAfterAsyncWritersDeath(_ trial: Int, writer: ChildProcess) throws {
        var acks: [UInt64: AckLine] = [:]
        var pending: [Int64: AckLine] = [:]  // task → its intent without an ack
        var ready: UInt64?
        for line in writer.lines {
            if line.hasPrefix("ready "), let value = UInt64(line.dropFirst(6)) { ready = value; continue }
            guard let parsed = AckLine(parsing: line), let first = parsed.items.first else { continue }
            let task = first.id / WriterCommand.laneWidth
            guard parsed.items.allSatisfy({ $0.id / WriterCommand.laneWidth == task }) else {
                fail(trial, "a \(parsed.kind.rawValue) line names ids of more than one task: \(line.prefix(120))")
                return
            }
            switch parsed.kind {
            case .intent:
                if pending[task] != nil {
                    fail(trial, "task \(task) printed an intent while its previous transaction had no ack")
                    return
                }
                pending[task] = parsed
            case .ack:
                guard let intent = pending[task], intent.items == parsed.items, intent.op == parsed.op else {
                    fail(trial, "ack \(parsed.sequence) does not match the intent task \(task) printed before it")
                    return
                }
                guard acks[parsed.sequence] == nil else {
                    fail(trial, "two acks name sequence \(parsed.sequence)")
                    return
                }
                acks[parsed.sequence] = parsed
                pending[task] = nil
            }
        }
        if let ready, ready != model.lastSequence {
            fail(trial, "the writer started at sequence \(ready), but the model (from earlier acks and checks) is at \(model.lastSequence)")
            return
        }
        if let stale = acks.keys.filter({ $0 <= model.lastSequence }).min() {
            fail(trial, "ack \(stale) names a sequence the model already had before this writer started (\(model.lastSequence))")
            return
        }

        guard let store = try openAfterWriterDeath(trial, acks: acks.count) else { return }
        defer { store.close() }

        let (records, lastSequence) = try TortureDatabase.contents(of: store)
        if let beyond = acks.keys.filter({ $0 > lastSequence }).min() {
            fail(trial, "ack \(beyond) is not in the database: the change log ends at \(lastSequence) (an ack before its commit was durable)")
            return
        }
        guard lastSequence >= model.lastSequence else {
            fail(trial, "the change log ends at \(lastSequence), before the \(model.lastSequence) the model had acknowledged")
            return
        }
        var expected = model
        var inFlight = pending
        if lastSequence > model.lastSequence {
            let slice = try store.read { try $0.changeLog(after: model.lastSequence) }
            if slice.isTruncated || slice.entries.count != Int(lastSequence - model.lastSequence) {
                fail(trial, "the change log after \(model.lastSequence) is incomplete (\(slice.entries.count) entries up to \(lastSequence), truncated: \(slice.isTruncated)); raise the retention or lower --fresh-every")
                return
            }
            for entry in slice.entries {
                let actual = loggedChanges(entry)
                if let ack = acks[entry.sequence] {
                    if actual != expectedChanges(ack.items, before: expected) || !entry.unlistedCollections.isEmpty {
                        fail(trial, "change-log entry \(entry.sequence) lists \(actual.count) change(s) that do not match its acknowledged transaction's \(ack.items.count)")
                    }
                    expected.apply(ack.items, sequence: entry.sequence)
                    continue
                }
                guard let (task, intent) = inFlight.first(where: { actual == expectedChanges($0.value.items, before: expected) && entry.unlistedCollections.isEmpty }) else {
                    fail(trial, "change-log entry \(entry.sequence) (\(actual.count) change(s)) matches neither an ack nor a transaction in flight at the kill (\(inFlight.count) in flight)")
                    return
                }
                inFlight[task] = nil
                expected.apply(intent.items, sequence: entry.sequence)
                summary.inFlightPresent += 1
            }
        }
        summary.inFlightAbsent += inFlight.count
        if let difference = describeDifference(records, expected.records) {
            fail(trial, "after \(acks.count) acks and \(pending.count - inFlight.count) committed in-flight transaction(s) (log ends at \(lastSequence)), the records differ: \(difference)")
        }
        summary.ackedTransactionsChecked += acks.count
        // The writer's own open commits nothing when the catalog is current, so the log entries
        // since the last check over the LMDB transactions since then shows the grouping.
        let transaction = store.info().lastTransactionID
        if let previous = transactionAtLastCheck {
            summary.asyncLogEntries += Int(lastSequence - model.lastSequence)
            summary.asyncTransactions += transaction - previous
        }
        transactionAtLastCheck = transaction
        model = expected
        model.lastSequence = lastSequence
    }
}
