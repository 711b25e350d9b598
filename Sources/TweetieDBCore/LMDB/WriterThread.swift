import Foundation

/// The one thread on which an environment runs its async writes.
///
/// LMDB requires a write transaction to begin and end on the same OS thread, and Swift tasks may
/// hop threads at every `await`. Async writes are therefore queued here and run one after
/// another, each from `mdb_txn_begin` to `mdb_txn_commit` without leaving the thread.
///
/// The writes waiting in the queue when the thread comes for work (at most ``maximumGroup``)
/// are taken together and run as a group in one durable commit (``Environment/commitGroup(_:)``):
/// while one commit syncs, the writes queued behind it gather for the next. When fewer are queued
/// than the last commit answered, the thread waits a little for the rest (``GroupGathering``).
final class WriterThread: @unchecked Sendable {
    /// The most writes one commit carries: enough to cover many concurrent writers, few enough
    /// that a failed group retried write by write stays short.
    static let maximumGroup = 64

    private let lock = ConditionLock()
    /// The queue; slots before `head` were taken (set to `nil`, so a finished write keeps nothing alive).
    private var jobs: [QueuedWrite?] = []
    private var head = 0
    private var stopped = false
    private var started = false
    /// What the thread expects of the next group; only the thread touches it.
    private var gathering: GroupGathering
    init(gathering: GroupGathering = GroupGathering()) {
        self.gathering = gathering
    }

    /// What became of a queued job.
    enum Outcome: Equatable {
        /// The job will run.
        case accepted
        /// The thread was stopped: the job was dropped.
        case stopped
        /// The thread could not be created (`pthread_create`'s error, such as `EAGAIN` when the
        /// address space or the thread limit is exhausted): the job was dropped.
        case threadFailed(Int32)
    }

    /// Queues `write`, starting the thread on first use. It runs alone or with the writes queued
    /// next to it.
    ///
    /// A thread that cannot be created is an error returned at once, never a retry: waiting for
    /// memory or threads to come back would hang the caller (as libdispatch's pool does).
    func enqueue(_ write: QueuedWrite) -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return .stopped }
        if !started {
            let code = startThread()
            guard code == 0 else { return .threadFailed(code) }
            started = true
        }
        jobs.append(write)
        lock.signal()
        return .accepted
    }

    /// How many writes wait in the queue, not yet taken by the thread (tests wait on it to know a
    /// group is formed).
    var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return jobs.count - head
    }

    /// Creates the detached thread that runs ``run()``; returns `pthread_create`'s result.
    private func startThread() -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            let writer = Unmanaged<WriterThread>.fromOpaque(context!).takeRetainedValue()
            writer.run()
            return nil
        }, context)
        if code != 0 { Unmanaged<WriterThread>.fromOpaque(context).release() }
        return code
    }

    /// Lets queued jobs finish, then ends the thread.
    func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    private func run() {
        while true {
            lock.lock()
            while head == jobs.count && !stopped { lock.wait() }
            if head == jobs.count && stopped {
                lock.unlock()
                return
            }
            gather()
            let end = min(jobs.count, head + Self.maximumGroup)
            let group = jobs[head..<end].map { $0! }
            for slot in head..<end { jobs[slot] = nil }
            head = end
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            let started = ConditionLock.now()
            let outcomes = group[0].environment.commitGroup(group)
            // Counted before any answer: a writer answered below may queue again at once.
            let queuedBehind = queuedCount
            gathering.committed(groupOf: group.count, queuedBehind: queuedBehind, from: started, to: ConditionLock.now())
            for (write, outcome) in zip(group, outcomes) { write.finish(outcome) }
        }
    }

    /// Waits, holding the lock, until as many writes are queued as ``gathering`` expects, or its
    /// deadline passes, or the thread is stopped.
    private func gather() {
        guard !stopped, let deadline = gathering.deadline(queued: jobs.count - head), deadline > ConditionLock.now() else { return }
        while !stopped && jobs.count - head < gathering.expected {
            if !lock.wait(until: deadline) { return }
        }
    }
}
