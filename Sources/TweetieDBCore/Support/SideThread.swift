import Foundation

/// Runs one piece of work on a thread of its own while the caller goes on; ``wait()`` returns
/// once the work has finished.
///
/// For work that must not wait on the cooperative pool and that touches no LMDB transaction:
/// a batch write sorts one index's held-back entries on it while the transaction's thread
/// writes another's. The caller waits before it touches what the work touches, and always
/// waits before it returns, so the work never outlives the data it reads.
///
/// ```swift
/// let sorting = SideThread(name: "TweetieDB index sort") { pending.sortIntoKeyOrder() }
/// try writeOtherIndexes()
/// sorting.wait()
/// ```
final class SideThread: @unchecked Sendable {
    private let lock = ConditionLock()
    /// Set when the work has returned (under `lock`).
    private var finished = false

    /// Starts `work` on a new thread named `name`.
    init(name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            work()
            lock.withLock {
                finished = true
                lock.broadcast()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Blocks until the work has returned; returns at once after that.
    func wait() {
        lock.withLock {
            while !finished { lock.wait() }
        }
    }
}
