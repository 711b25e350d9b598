#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Minor page faults and CPU time of this process: what a timed run cost beyond its duration.
///
/// A bulk write into a fresh database mallocs tens of megabytes of LMDB dirty pages. Whether
/// those pages fault depends on whether glibc kept the heap from an earlier run or returned it to
/// the kernel (trimming, decided by thresholds that move with the process's history), so suite 1
/// reports the faults of each timed run beside its time, and its CPU time on all threads (a
/// TweetieDB batch encodes on a second thread, so its CPU time can exceed its duration).
///
/// ```swift
/// let (result, ns, faults, cpu) = try PageFaults.timing { try work() }
/// ```
public enum PageFaults {
    /// The process's minor page faults so far.
    ///
    /// ```swift
    /// let before = PageFaults.minor()
    /// ```
    public static func minor() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }

    /// The process's CPU time so far (user and system, all threads), in nanoseconds.
    ///
    /// ```swift
    /// let before = PageFaults.cpuNanoseconds()
    /// ```
    public static func cpuNanoseconds() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = UInt64(usage.ru_utime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_utime.tv_usec) * 1_000
        let system = UInt64(usage.ru_stime.tv_sec) * 1_000_000_000 + UInt64(usage.ru_stime.tv_usec) * 1_000
        return user + system
    }

    /// Runs `body` and returns its result, its duration in nanoseconds, the minor page faults it
    /// caused and the CPU time it used on all threads (nanoseconds).
    ///
    /// ```swift
    /// let (_, ns, faults, cpu) = try PageFaults.timing { try raw.putAll(keys: keys, values: values) }
    /// ```
    public static func timing<T>(_ body: () throws -> T) rethrows -> (T, UInt64, Int, UInt64) {
        let faults = minor(), cpu = cpuNanoseconds()
        let (result, ns) = try Nanoseconds.time(body)
        return (result, ns, minor() - faults, cpuNanoseconds() - cpu)
    }
}
