/// How the writer thread gathers a group: before it takes the queued writes, it may wait a little
/// for the writers its last commit answered.
///
/// A task that awaits its write and then writes again comes back some tens of microseconds after
/// its answer. Without a wait, the first writer back finds the thread idle and commits alone while
/// the others queue behind that commit: four writers settle into groups of one and three, two
/// durable commits where one would do. So the thread expects as many writes as its last commit
/// answered plus those that queued while it ran (the writers it has seen lately), and when fewer
/// are queued it waits for the rest — until half as long as that commit took has passed since it
/// ended, and never more than ``maximumWait`` after it.
///
/// The rules that keep the wait cheap:
/// - A lone writer never waits: its commit answered one write, and one is queued when it returns.
/// - A writer that does not come back costs one wait: the group then taken is smaller, and so is
///   what the thread expects next.
/// - Writers that come back later than the wait (they do other work between writes) cost nothing:
///   the wait is counted from the end of the commit, so by then it has run out.
/// - The wait is a fraction of a commit: writers that come back turn two commits into one, which
///   saves a whole commit's syncs.
///
/// ```swift
/// var gathering = GroupGathering()
/// gathering.committed(groupOf: 3, queuedBehind: 1, from: t0, to: t1) // a 0.45 ms commit; expects 4 writes next
/// gathering.deadline(queued: 1) // t1 + 200_000: wait for the three it answered
/// gathering.deadline(queued: 4) // nil: take the group now
/// ```
struct GroupGathering: Sendable, Equatable {
    /// The longest the thread waits for a group to fill, in nanoseconds (0.2 ms): about half of a
    /// durable commit on a fast disk, enough for answered tasks to be resumed and queue again.
    static let maximumWait: UInt64 = 200_000

    /// The longest and shortest this gathering waits (``maximumWait`` and 0 unless a test sets them).
    let longestWait: UInt64, shortestWait: UInt64

    init(longestWait: UInt64 = Self.maximumWait, shortestWait: UInt64 = 0) {
        self.longestWait = longestWait
        self.shortestWait = min(shortestWait, longestWait)
    }

    /// How many writes the thread expects to find queued: those the last commit answered plus
    /// those that queued while it ran; at most ``WriterThread/maximumGroup``.
    private(set) var expected = 1
    /// How long the last group took to run and commit, in nanoseconds.
    private(set) var lastDuration: UInt64 = 0
    /// When the last group had committed (monotonic nanoseconds).
    private(set) var lastEnd: UInt64 = 0

    /// Records a group that ran: how many writes it carried, how many were queued behind it when
    /// it had committed (before any of its own writers was answered), and when it started and
    /// ended (monotonic nanoseconds).
    mutating func committed(groupOf size: Int, queuedBehind: Int, from start: UInt64, to end: UInt64) {
        expected = max(1, min(size + queuedBehind, WriterThread.maximumGroup))
        lastDuration = end > start ? end - start : 0
        lastEnd = end
    }

    /// Until when (monotonic nanoseconds) to wait for more writes while `queued` are waiting;
    /// `nil` when the group should be taken at once. A deadline already past means the same.
    func deadline(queued: Int) -> UInt64? {
        guard queued < expected else { return nil }
        let wait = min(max(lastDuration / 2, shortestWait), longestWait)
        return wait > 0 ? lastEnd + wait : nil
    }
}
