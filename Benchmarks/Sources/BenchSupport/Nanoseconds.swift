#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clock readings in nanoseconds.
///
/// ```swift
/// let start = Nanoseconds.monotonic()
/// work()
/// let elapsed = Nanoseconds.monotonic() - start
/// ```
public enum Nanoseconds {
    /// CLOCK_MONOTONIC, for durations within one process.
    ///
    /// ```swift
    /// let t0 = Nanoseconds.monotonic()
    /// ```
    public static func monotonic() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// CLOCK_REALTIME, comparable across processes.
    ///
    /// ```swift
    /// let stamp = Nanoseconds.realtime()
    /// ```
    public static func realtime() -> UInt64 { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Times `body`: its result and the elapsed nanoseconds.
    ///
    /// ```swift
    /// let (rows, ns) = try Nanoseconds.time { try peer.timeline() }
    /// ```
    public static func time<T>(_ body: () throws -> T) rethrows -> (T, UInt64) {
        let start = monotonic()
        let result = try body()
        return (result, monotonic() - start)
    }
}
