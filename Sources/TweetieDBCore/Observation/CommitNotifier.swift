import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Wakes observers when a transaction that changed records commits, in this process or another.
///
/// A commit in this process calls the subscribers directly. For other processes every commit also
/// rewrites `changes.notify` beside the database; a watcher thread waits on it with inotify and,
/// as a safety net (inotify can overflow, run out of instances, or a file system may not support
/// it), polls the id of the newest snapshot every ``Paths/pollInterval`` milliseconds.
/// Subscribers must tolerate spurious wake-ups: they read the change log to see what is new.
///
/// The poll compares snapshot ids (`mdb_txn_id` of a fresh read transaction), never the id in the
/// meta page (`mdb_env_info`): a committing writer updates the meta page first and the id that new
/// read transactions start from a moment later (after an `O_DSYNC` write under full durability),
/// so a meta-page id can announce a commit that a subscriber woken for it cannot read yet; the
/// poll would then never report it again and the subscriber would stay one commit behind until
/// the next commit. A snapshot id is what every later read transaction starts
/// from or after.
final class CommitNotifier: @unchecked Sendable {
    /// The wake-up paths the watcher uses for other processes' commits. Both by default; tests turn
    /// one off to check the other alone.
    struct Paths: Sendable, Hashable {
        /// Wait on `changes.notify` with inotify.
        var notifyFile = true
        /// Poll the newest snapshot id.
        var poll = true
        /// The poll interval, in milliseconds (also the longest inotify wait between polls).
        var pollInterval: Int32 = CommitNotifier.defaultPollInterval
    }

    /// The default safety-net poll interval, in milliseconds.
    static let defaultPollInterval: Int32 = 100

    let notifyPath: String
    let paths: Paths
    private let state = Mutex(State())
    private let fileDescriptor: Int32
    /// The id of the newest committed snapshot a read transaction sees (0 when unknown).
    private let newestSnapshot: @Sendable () -> Int

    private struct State {
        var subscribers: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var watcherRunning = false
        var closed = false
        /// Set by the watcher thread once it knows whether inotify works.
        var watchingNotifyFile: Bool?
        var notifyFileProblem: String?
        var notifyFileWakeUps = 0
        var pollWakeUps = 0
    }

    /// A notifier for the database in `directory`; `newestSnapshot` is polled (see ``Paths``).
    /// The notification file is created when `create` is set: a store opened read-only never
    /// commits, so it does not create the file.
    init(directory: String, create: Bool = true, paths: Paths = Paths(),
         newestSnapshot: @escaping @Sendable () -> Int = { 0 }) {
        notifyPath = directory + "/changes.notify"
        self.paths = paths
        self.newestSnapshot = newestSnapshot
        fileDescriptor = Glibc.open(notifyPath, O_WRONLY | (create ? O_CREAT : 0) | O_CLOEXEC, 0o600)
    }

    /// The id of the newest snapshot of `environment`: a read transaction's (0 when none can begin,
    /// e.g. closed).
    static func newestSnapshot(of environment: Environment) -> Int {
        (try? environment.read { $0.id }) ?? 0
    }

    deinit { close() }

    func close() {
        // The descriptor is closed under the lock ``didCommit(sequence:)`` writes it under: a
        // commit that ends while the store closes never writes to a closed descriptor, whose
        // number another thread may already have opened for another file.
        let subscribers = state.withLock { state -> [UInt64: @Sendable () -> Void] in
            guard !state.closed else { return [:] }
            state.closed = true
            if fileDescriptor >= 0 { Glibc.close(fileDescriptor) }
            let removed = state.subscribers
            state.subscribers = [:]
            return removed
        }
        // Woken once more, outside the lock: an observer reads again, finds the store closed and
        // ends with that error instead of waiting for a commit that cannot come.
        for subscriber in subscribers.values { subscriber() }
    }

    /// Called after a commit that appended change-log entry `sequence`.
    func didCommit(sequence: UInt64) {
        let subscribers = state.withLock { state -> [@Sendable () -> Void] in
            // Under the lock `close()` closes the descriptor under (see there).
            if !state.closed, fileDescriptor >= 0 {
                var value = sequence.bigEndian
                _ = pwrite(fileDescriptor, &value, 8, 0)
            }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber() }
    }

    /// Registers `handler`, called on every (possible) commit. Starts the watcher thread for
    /// commits made by other processes.
    ///
    /// Call it before reading what the handler's wake-ups refresh: when it starts the watcher, the
    /// snapshot the poll compares against is taken here, so a commit after the caller's read is
    /// never taken for the starting point.
    func subscribe(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startWatcher, closed) = state.withLock { state -> (UInt64, Bool, Bool) in
            let id = state.nextID
            state.nextID += 1
            if !state.closed { state.subscribers[id] = handler }
            let start = !state.watcherRunning && !state.closed
            if start { state.watcherRunning = true }
            return (id, start, state.closed)
        }
        if closed { handler() }  // as close() wakes the subscribers it had
        if startWatcher {
            let start = paths.poll ? newestSnapshot() : 0
            let thread = Thread { [weak self] in self?.watch(from: start) }
            thread.name = "TweetieDB commit watcher"
            thread.start()
        }
        return id
    }

    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// How commits of other processes reach this notifier's subscribers.
    var wakeUp: CommitWakeUp {
        let (running, watching, problem, notifyWakeUps, pollWakeUps) = state.withLock {
            ($0.watcherRunning, $0.watchingNotifyFile, $0.notifyFileProblem, $0.notifyFileWakeUps, $0.pollWakeUps)
        }
        var wakeUp = CommitWakeUp(notifyFile: notifyPath, watchesNotifyFile: false, notifyFileProblem: nil,
                                  pollIntervalMilliseconds: paths.poll ? Int(paths.pollInterval) : nil,
                                  isWatching: running, notifyFileWakeUps: notifyWakeUps, pollWakeUps: pollWakeUps)
        if !paths.notifyFile {
            wakeUp.notifyFileProblem = "disabled"
        } else if running, let watching {
            wakeUp.watchesNotifyFile = watching
            wakeUp.notifyFileProblem = problem
        } else {
            // Not watching yet: whether inotify would work in this process now.
            let (fd, problem) = Self.openInotify()
            if fd >= 0 { Glibc.close(fd) }
            wakeUp.watchesNotifyFile = fd >= 0
            wakeUp.notifyFileProblem = problem
        }
        return wakeUp
    }

    /// An inotify instance, or -1 and why there is none.
    private static func openInotify() -> (Int32, String?) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        return fd >= 0 ? (fd, nil) : (-1, "inotify_init1: \(String(cString: strerror(errno)))")
    }

    private func watch(from start: Int) {
        var inotify: Int32 = -1
        var problem: String? = "disabled"
        if paths.notifyFile {
            (inotify, problem) = Self.openInotify()
            if inotify >= 0, inotify_add_watch(inotify, notifyPath, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB)) < 0 {
                problem = "inotify_add_watch \(notifyPath): \(String(cString: strerror(errno)))"
                Glibc.close(inotify)
                inotify = -1
            }
        }
        state.withLock {
            $0.watchingNotifyFile = inotify >= 0
            $0.notifyFileProblem = problem
        }
        defer { if inotify >= 0 { Glibc.close(inotify) } }
        var lastSeen = start
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let stop = state.withLock { state -> Bool in
                if state.closed || state.subscribers.isEmpty { state.watcherRunning = false; return true }
                return false
            }
            if stop { return }
            var byNotifyFile = false
            if inotify >= 0 {
                var pfd = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, paths.pollInterval) > 0 {
                    while read(inotify, &buffer, buffer.count) > 0 {}
                    byNotifyFile = true
                }
            } else {
                usleep(UInt32(paths.pollInterval) * 1000)
            }
            var byPoll = false
            if paths.poll {
                let current = newestSnapshot()
                if current != lastSeen {
                    lastSeen = current
                    byPoll = !byNotifyFile
                }
            }
            guard byNotifyFile || byPoll else { continue }
            let subscribers = state.withLock { state -> [@Sendable () -> Void] in
                if byNotifyFile { state.notifyFileWakeUps += 1 } else { state.pollWakeUps += 1 }
                return Array(state.subscribers.values)
            }
            for subscriber in subscribers { subscriber() }
        }
    }
}
