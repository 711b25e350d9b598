import Glibc

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`): every connection holds one, so
/// a server for N clients (or a load generator with N clients) needs a soft limit above N.
///
/// ```swift
/// let limit = try FileDescriptorLimit.raise(toAtLeast: 10_000 + 256)
/// print("up to \(limit.soft) descriptors")
/// ```
public struct FileDescriptorLimit: Sendable, Equatable {
    /// The limit in force (what `ulimit -n` shows).
    public var soft: UInt64
    /// The ceiling the soft limit can be raised to without privileges (`ulimit -Hn`).
    public var hard: UInt64

    /// The limit now in force.
    ///
    /// ```swift
    /// print(FileDescriptorLimit.current.soft)  // 1024 on many systems
    /// ```
    public static var current: FileDescriptorLimit {
        var limit = rlimit()
        getrlimit(RLIMIT_NOFILE_VALUE, &limit)
        return FileDescriptorLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// The limit could not be raised far enough.
    public struct TooLow: Error, CustomStringConvertible {
        /// How many descriptors were asked for.
        public var needed: UInt64
        /// The limit after the attempt.
        public var limit: FileDescriptorLimit
        /// `errno` of the failed `setrlimit`, if one failed.
        public var errno: Int32?

        public var description: String {
            let why = errno.map { " (setrlimit: \(String(cString: strerror($0))))" } ?? ""
            return "RLIMIT_NOFILE: \(needed) file descriptors are needed but the soft limit is \(limit.soft) and the hard limit \(limit.hard)\(why): "
                + "raise the hard limit (as root, `ulimit -Hn \(needed)` in the shell that starts this, or nofile in /etc/security/limits.conf)"
        }
    }

    /// Raises the soft limit to at least `needed` descriptors: up to the hard limit, and past it
    /// when the process may (root). Returns the limit in force; throws ``TooLow`` when it stays
    /// below `needed`. Never lowers a limit.
    ///
    /// ```swift
    /// do { _ = try FileDescriptorLimit.raise(toAtLeast: 20_000) } catch { print(error) }
    /// ```
    @discardableResult
    public static func raise(toAtLeast needed: UInt64) throws(TooLow) -> FileDescriptorLimit {
        let before = current
        if before.soft >= needed { return before }
        var limit = rlimit(rlim_cur: rlim_t(needed), rlim_max: rlim_t(max(needed, before.hard)))
        if setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 { return current }
        let failure = errno
        // Without privileges the hard limit cannot move: take what it allows, then say what is missing.
        limit = rlimit(rlim_cur: rlim_t(before.hard), rlim_max: rlim_t(before.hard))
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
        throw TooLow(needed: needed, limit: current, errno: failure)
    }
}

private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
