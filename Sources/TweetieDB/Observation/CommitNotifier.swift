import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Wakes observers when a transaction that changed records commits, in this process or another.
///
/// A commit in this process calls the subscribers directly. For other processes every commit also
/// rewrites `changes.notify` beside the database; a watcher thread waits on it with inotify and,
/// as a safety net (inotify can overflow, or a file system may not support it), polls LMDB's
/// last transaction id (`me_last_txnid`, a read of the lock file) every ``pollInterval``.
/// Subscribers must tolerate spurious wake-ups: they read the change log to see what is new.
final class CommitNotifier: @unchecked Sendable {
    /// The safety-net poll interval.
    static let pollInterval: Int32 = 100 // milliseconds

    let notifyPath: String
    private let state = Mutex(State())
    private let fileDescriptor: Int32

    private struct State {
        var subscribers: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        var watcherRunning = false
        var closed = false
        var lastTransactionProbe: (@Sendable () -> Int)?
    }

    /// Opens (creating it when `create` is set) the notification file in `directory`. A store
    /// opened read-only never commits, so it does not create the file.
    init(directory: String, create: Bool = true) {
        notifyPath = directory + "/changes.notify"
        fileDescriptor = Glibc.open(notifyPath, O_WRONLY | (create ? O_CREAT : 0) | O_CLOEXEC, 0o600)
    }

    deinit { close() }

    func close() {
        let fd = state.withLock { state -> Int32 in
            guard !state.closed else { return -1 }
            state.closed = true
            state.subscribers.removeAll()
            return fileDescriptor
        }
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Called after a commit that appended change-log entry `sequence`.
    func didCommit(sequence: UInt64) {
        if fileDescriptor >= 0 {
            var value = sequence.bigEndian
            _ = pwrite(fileDescriptor, &value, 8, 0)
        }
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber() }
    }

    /// Registers `handler`, called on every (possible) commit. Starts the watcher thread for
    /// commits made by other processes.
    func subscribe(lastTransaction: @escaping @Sendable () -> Int, _ handler: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startWatcher) = state.withLock { state -> (UInt64, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = handler
            state.lastTransactionProbe = lastTransaction
            let start = !state.watcherRunning && !state.closed
            if start { state.watcherRunning = true }
            return (id, start)
        }
        if startWatcher {
            let thread = Thread { [weak self] in self?.watch() }
            thread.name = "TweetieDB commit watcher"
            thread.start()
        }
        return id
    }

    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    private func watch() {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if inotify >= 0 {
            _ = inotify_add_watch(inotify, notifyPath, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB))
        }
        defer { if inotify >= 0 { Glibc.close(inotify) } }
        var lastSeen = state.withLock { $0.lastTransactionProbe }?() ?? 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let (closed, empty, probe) = state.withLock { ($0.closed, $0.subscribers.isEmpty, $0.lastTransactionProbe) }
            if closed || empty {
                let stop = state.withLock { state -> Bool in
                    if state.closed || state.subscribers.isEmpty { state.watcherRunning = false; return true }
                    return false
                }
                if stop { return }
            }
            var woke = false
            if inotify >= 0 {
                var pfd = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, CommitNotifier.pollInterval) > 0 {
                    while read(inotify, &buffer, buffer.count) > 0 {}
                    woke = true
                }
            } else {
                usleep(UInt32(CommitNotifier.pollInterval) * 1000)
            }
            let current = probe?() ?? 0
            if current != lastSeen {
                lastSeen = current
                woke = true
            }
            if woke {
                let subscribers = state.withLock { Array($0.subscribers.values) }
                for subscriber in subscribers { subscriber() }
            }
        }
    }
}
