import Foundation

/// The one thread on which an environment runs its async writes.
///
/// LMDB requires a write transaction to begin and end on the same OS thread, and Swift tasks may
/// hop threads at every `await`. Async writes are therefore queued here and run one after
/// another, each from `mdb_txn_begin` to `mdb_txn_commit` without leaving the thread.
///
/// The writes waiting in the queue when the thread comes for work (at most ``maximumGroup``)
/// are taken together and run as a group in one durable commit (``Environment/commitGroup(_:)``):
/// while one commit syncs, the writes queued behind it gather for the next.
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
    init() {}

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
            let end = min(jobs.count, head + Self.maximumGroup)
            let group = jobs[head..<end].map { $0! }
            for slot in head..<end { jobs[slot] = nil }
            head = end
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            group[0].environment.commitGroup(group)
        }
    }
}
