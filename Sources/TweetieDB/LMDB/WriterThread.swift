import Foundation

/// The one thread on which an environment runs its async writes.
///
/// LMDB requires a write transaction to begin and end on the same OS thread, and Swift tasks may
/// hop threads at every `await`. Async writes are therefore queued here and run one after
/// another, each from `mdb_txn_begin` to `mdb_txn_commit` without leaving the thread.
final class WriterThread: @unchecked Sendable {
    private let lock = ConditionLock()
    private var jobs: [() -> Void] = []
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

    /// Queues `job`, starting the thread on first use.
    ///
    /// A thread that cannot be created is an error returned at once, never a retry: waiting for
    /// memory or threads to come back would hang the caller (as libdispatch's pool does).
    func enqueue(_ job: @escaping () -> Void) -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return .stopped }
        if !started {
            let code = startThread()
            guard code == 0 else { return .threadFailed(code) }
            started = true
        }
        jobs.append(job)
        lock.signal()
        return .accepted
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
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            job()
        }
    }
}
