import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a command is writing and must not leave behind when a signal ends it.
///
/// Rules: ``install()`` runs once, first thing in `main`; it handles SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT. A command registers a temporary file (removed) or a directory it created (removed
/// when empty) before creating it, and unregisters it once it is renamed into place or removed.
/// On a signal the handler removes what is registered, then ends the process: SIGINT, SIGTERM
/// and SIGHUP by the same signal with its default action; SIGQUIT with exit status 131 and no
/// crash backtrace or core dump (the Swift runtime would otherwise treat it as a crash).
/// The handler only calls async-signal-safe functions on C strings copied at registration.
enum InterruptCleanup {
    private static let capacity = 8
    /// Slots of `strdup`ed paths; a path is a file to unlink, or a directory to rmdir when
    /// `isDirectory[slot]` is set.
    nonisolated(unsafe) private static var paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var isDirectory = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)

    /// Installs the handlers. A signal the parent set to be ignored (SIGHUP under `nohup`) stays
    /// ignored; a handled signal the parent left blocked is unblocked, so that it is acted on.
    static func install() {
        paths.initialize(repeating: nil, count: capacity)
        isDirectory.initialize(repeating: false, count: capacity)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in handledSignals {
            var current = sigaction()
            sigaction(signal, nil, &current)
            let handler = withUnsafeBytes(of: &current.__sigaction_handler) { $0.load(as: Int.self) }
            if handler == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                InterruptCleanup.removeRegistered()
                if signal == SIGQUIT { _exit(128 + SIGQUIT) }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            sigaddset(&unblock, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    private static let handledSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Removes `path` (a file) if a signal ends the process before ``unregister(_:)``.
    static func register(file path: String) { register(path, directory: false) }

    /// Removes `path` (a directory, only when empty) if a signal ends the process before
    /// ``unregister(_:)``.
    static func register(directory path: String) { register(path, directory: true) }

    private static func register(_ path: String, directory: Bool) {
        var blocked = signalsBlocked()
        defer { pthread_sigmask(SIG_SETMASK, &blocked, nil) }
        guard let slot = (0..<capacity).first(where: { paths[$0] == nil }) else { return }
        isDirectory[slot] = directory
        paths[slot] = strdup(path)
    }

    /// Forgets `path`: it was renamed into place or removed.
    static func unregister(_ path: String) {
        var blocked = signalsBlocked()
        defer { pthread_sigmask(SIG_SETMASK, &blocked, nil) }
        for slot in 0..<capacity {
            if let pointer = paths[slot], String(cString: pointer) == path {
                paths[slot] = nil
                free(pointer)
            }
        }
    }

    /// Blocks the handled signals while the slots change; returns the previous mask.
    private static func signalsBlocked() -> sigset_t {
        var set = sigset_t(), previous = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        return previous
    }

    /// Files first, then directories (which are empty only once the files are gone).
    private static func removeRegistered() {
        for slot in 0..<capacity where !isDirectory[slot] { if let path = paths[slot] { unlink(path) } }
        for slot in 0..<capacity where isDirectory[slot] { if let path = paths[slot] { rmdir(path) } }
    }
}
