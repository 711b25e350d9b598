/// How a store's observers learn of commits made by other processes: inotify on `changes.notify`,
/// a poll of the newest snapshot id, or both, and how often each has woken them.
///
/// Commits made through the same ``Store`` wake its observers directly; this describes only the
/// cross-process paths. Without inotify (instances used up, a file system without it) commits
/// still arrive, within the poll interval.
///
/// ```swift
/// print(store.commitWakeUp)   // "inotify on /db/changes.notify, and a poll every 100 ms"
/// ```
public struct CommitWakeUp: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file other processes touch after each commit.
    ///
    /// ```swift
    /// print(wakeUp.notifyFile)   // "/db/changes.notify"
    /// ```
    public var notifyFile: String
    /// Whether inotify watches ``notifyFile`` (when not watching yet: whether it could now).
    ///
    /// ```swift
    /// if !wakeUp.watchesNotifyFile { print("polling only") }
    /// ```
    public var watchesNotifyFile: Bool
    /// Why inotify does not watch ``notifyFile``, when it does not (e.g. "inotify_init1: Too many
    /// open files" when the user's inotify instances are used up).
    ///
    /// ```swift
    /// if let problem = wakeUp.notifyFileProblem { print(problem) }
    /// ```
    public var notifyFileProblem: String?
    /// The poll interval in milliseconds, `nil` when the poll is off.
    ///
    /// ```swift
    /// print(wakeUp.pollIntervalMilliseconds ?? 0)   // 100
    /// ```
    public var pollIntervalMilliseconds: Int?
    /// Whether the watcher thread runs (some observer of the store is active).
    public var isWatching: Bool
    /// How many times the notify file woke the observers.
    public var notifyFileWakeUps: Int
    /// How many times the poll (and not the notify file) woke the observers.
    public var pollWakeUps: Int

    /// One line: the paths in use, and why inotify is not, when it is not.
    ///
    /// ```swift
    /// print(wakeUp.description)   // "a poll every 100 ms only (inotify: inotify_init1: Too many open files)"
    /// ```
    public var description: String {
        let poll = pollIntervalMilliseconds.map { "a poll every \($0) ms" }
        switch (watchesNotifyFile, poll) {
        case (true, let poll?): return "inotify on \(notifyFile), and \(poll)"
        case (true, nil): return "inotify on \(notifyFile) only (no poll)"
        case (false, let poll?): return "\(poll) only (inotify: \(notifyFileProblem ?? "unavailable"))"
        case (false, nil): return "nothing: commits of other processes are not seen (inotify: \(notifyFileProblem ?? "unavailable"), no poll)"
        }
    }
}

extension Store {
    /// How this store's observers learn of commits made by other processes (see ``CommitWakeUp``).
    ///
    /// ```swift
    /// print("woken by \(store.commitWakeUp)")
    /// ```
    public var commitWakeUp: CommitWakeUp { notifier.wakeUp }
}
