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
    private let name: String

    init(name: String) {
        self.name = name
    }

    /// Queues `job`; returns `false` when the thread was stopped.
    func enqueue(_ job: @escaping () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return false }
        jobs.append(job)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        }
        lock.signal()
        return true
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
