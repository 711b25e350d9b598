import Foundation
import Testing
import TweetieTestSupport
@testable import TweetieDBCore

/// The writer thread waits a little, before it takes a group, for the writers its last commit
/// answered: the rule itself, and the thread that follows it.
@Suite("Group gathering")
struct GroupGatheringTests {
    @Test func aLoneWriterNeverWaits() {
        var gathering = GroupGathering()
        #expect(gathering.deadline(queued: 1) == nil, "nothing committed yet: take the first write at once")
        gathering.committed(groupOf: 1, queuedBehind: 0, from: 100_000, to: 1_000_000)
        #expect(gathering.expected == 1)
        #expect(gathering.deadline(queued: 1) == nil)
    }

    @Test func expectsTheAnsweredWritersAndThoseQueuedBehind() {
        var gathering = GroupGathering()
        gathering.committed(groupOf: 3, queuedBehind: 1, from: 700_000, to: 1_000_000)
        #expect(gathering.expected == 4)
        // Half the last commit after its end, while fewer than expected are queued; none once they all are.
        #expect(gathering.deadline(queued: 1) == 1_000_000 + 150_000)
        #expect(gathering.deadline(queued: 3) == 1_000_000 + 150_000)
        #expect(gathering.deadline(queued: 4) == nil)
        #expect(gathering.deadline(queued: 9) == nil)
    }

    @Test func theWaitIsBoundedAndFollowsTheCommit() {
        var gathering = GroupGathering()
        gathering.committed(groupOf: 4, queuedBehind: 0, from: 0, to: 40_000_000) // a 40 ms commit
        #expect(gathering.deadline(queued: 0) == 40_000_000 + GroupGathering.maximumWait)
        gathering.committed(groupOf: 4, queuedBehind: 0, from: 50_000_000, to: 50_060_000) // a commit that did not sync
        #expect(gathering.deadline(queued: 0) == 50_060_000 + 30_000)
        gathering.committed(groupOf: 4, queuedBehind: 0, from: 60_000_000, to: 60_000_000)
        #expect(gathering.deadline(queued: 0) == nil, "no time measured: no wait")
    }

    @Test func aWriterThatDoesNotComeBackCostsOneWait() {
        var gathering = GroupGathering()
        gathering.committed(groupOf: 4, queuedBehind: 0, from: 0, to: 500_000)
        #expect(gathering.deadline(queued: 3) != nil, "one of four is missing: wait for it")
        // The wait ran out and the thread took three: it now expects three.
        gathering.committed(groupOf: 3, queuedBehind: 0, from: 1_000_000, to: 1_500_000)
        #expect(gathering.deadline(queued: 3) == nil)
    }

    @Test func neverExpectsMoreThanOneGroupHolds() {
        var gathering = GroupGathering()
        gathering.committed(groupOf: WriterThread.maximumGroup, queuedBehind: 500, from: 0, to: 500_000)
        #expect(gathering.expected == WriterThread.maximumGroup)
        #expect(gathering.deadline(queued: WriterThread.maximumGroup) == nil)
    }

    /// Queues a write on `thread` that bumps the counter; returns the id of the transaction it
    /// committed in.
    static func write(_ writer: Int, on thread: WriterThread, _ env: Environment, _ db: Database,
                      counting enqueued: Counter? = nil) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let queued = QueuedWrite(environment: env, body: { tx in
                _ = try GroupCommitTests.bump(tx, writer: writer, in: db)
                return tx.id
            }, committed: { continuation.resume(with: $0) })
            if thread.enqueue(queued) != .accepted {
                continuation.resume(throwing: StoreError(.invalidArgument, operation: "enqueue", path: env.path, message: "the writer thread refused the write"))
            }
            enqueued?.increment()
        }
    }

    /// The thread waits for the writers of its last group, even when they come back long after
    /// their answer, and commits them together.
    ///
    /// Nothing here depends on how fast the machine is: the wait is an hour (under the full suite
    /// on two cores, the tasks that queue the writes were seen to start more than a minute late,
    /// which ran out the minute this test once waited), each write is known to be queued before
    /// the next is started, and only a thread that does not wait can split a group. A thread that
    /// waited for more writers than it answered would hang: the time limit turns that into a failure.
    @Test(.timeLimit(.minutes(10))) func theThreadWaitsForTheWritersItAnswered() async throws {
        let dir = TemporaryDirectory("group-gathering")
        defer { dir.remove() }
        let (env, db) = try GroupCommitTests.open(dir)
        defer { env.close() }
        let wait: UInt64 = 3_600_000_000_000
        // As if the thread had just answered a group of three.
        var gathering = GroupGathering(longestWait: wait, shortestWait: wait)
        let now = ConditionLock.now()
        gathering.committed(groupOf: 3, queuedBehind: 0, from: now, to: now)
        let thread = WriterThread(gathering: gathering)
        defer { thread.stop() }

        /// The writes handed to the thread so far, whether or not it has taken them yet.
        let enqueued = Counter()
        /// Waits until `count` writes were handed to the thread (the tasks that queue them may start late).
        func queued(_ count: Int) async throws {
            try await GroupCommitTests.waitUntil("write \(count) to be handed to the thread") { enqueued.value >= count }
        }

        /// One write comes back first, the other two a fifth of a second after it was queued: the
        /// thread waits for them instead of committing the first alone. Returns the three
        /// transaction ids.
        func threeComeBack(from writer: Int) async throws -> [Int] {
            let first = Task { try await Self.write(writer, on: thread, env, db, counting: enqueued) }
            try await queued(writer + 1)
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(thread.queuedCount == 1, "the first write waits for the others")
            let second = Task { try await Self.write(writer + 1, on: thread, env, db, counting: enqueued) }
            try await queued(writer + 2)
            let third = Task { try await Self.write(writer + 2, on: thread, env, db, counting: enqueued) }
            return [try await first.value, try await second.value, try await third.value]
        }

        let ids = try await threeComeBack(from: 0)
        #expect(Set(ids).count == 1, "one commit for the writers that came back: \(ids)")
        // The thread recorded that group itself: it expects three again.
        let again = try await threeComeBack(from: 3)
        #expect(Set(again).count == 1, "one commit for the writers that came back: \(again)")
        #expect(again[0] == ids[0] + 1)
    }
}
