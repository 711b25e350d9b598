import Foundation

/// A thread kept for the life of the process that runs one piece of work at a time for whoever
/// finds it idle.
///
/// Why one kept thread rather than a new one per job: starting a thread costs tens of
/// microseconds, and glibc gives each new thread that allocates a malloc arena of its own (up to
/// eight per core), so short-lived helpers spread a process's freed memory over many arenas,
/// where it stays. A kept helper allocates from one arena, warm from its last job.
///
/// Rules: a job must not block on work that needs this same helper (a job that would want it
/// finds it busy and does the work itself); the caller waits with ``waitUntilIdle()`` before it
/// touches what the job touches, and before it returns.
///
/// ```swift
/// if HelperThread.fetchDecoder.tryStart({ decode(secondHalf) }) {
///     decode(firstHalf)
///     HelperThread.fetchDecoder.waitUntilIdle()
/// } else {
///     decode(everything)
/// }
/// ```
@usableFromInline
final class HelperThread: @unchecked Sendable {
    /// The helper that decodes large fetches beside their walk (``FetchPipeline``), and large
    /// observation starts beside the calling thread (``LiveQueryCore/initialRows(assemble:)``).
    @usableFromInline static let fetchDecoder = HelperThread(name: "TweetieDB fetch decoder")

    private let name: String
    private let lock = ConditionLock()
    /// The job handed over and not yet taken (under `lock`).
    private var job: (@Sendable () -> Void)?
    /// From ``tryStart(_:)`` until its job has returned (under `lock`).
    private var busy = false
    /// Whether the thread exists (under `lock`): it starts with the first job.
    private var started = false

    init(name: String) {
        self.name = name
    }

    /// Hands `work` to the helper and returns `true`, or returns `false` at once when the helper
    /// is running someone else's job.
    @usableFromInline
    func tryStart(_ work: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard !busy else { return false }
            busy = true
            job = work
            if !started {
                started = true
                let thread = Thread { [self] in run() }
                thread.name = name
                thread.start()
            }
            lock.broadcast()
            return true
        }
    }

    /// Blocks until the job handed over by ``tryStart(_:)`` has returned.
    @usableFromInline
    func waitUntilIdle() {
        lock.withLock {
            while busy { lock.wait() }
        }
    }

    private func run() {
        lock.lock()
        while true {
            while job == nil { lock.wait() }
            let work = job!
            job = nil
            lock.unlock()
            work()
            lock.lock()
            busy = false
            lock.broadcast()
        }
    }
}
