#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Minor page faults of this process: first touches of memory the kernel had to map.
///
/// A bulk write into a fresh database mallocs tens of megabytes of LMDB dirty pages. Whether
/// those pages fault depends on whether glibc kept the heap from an earlier run or returned it to
/// the kernel (trimming, decided by thresholds that move with the process's history), so suite 1
/// reports the faults of each timed run beside its time.
///
/// ```swift
/// let (result, ns, faults) = try PageFaults.timing { try work() }
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

    /// Runs `body` and returns its result, its duration in nanoseconds and the minor page faults
    /// it caused.
    ///
    /// ```swift
    /// let (_, ns, faults) = try PageFaults.timing { try raw.putAll(keys: keys, values: values) }
    /// ```
    public static func timing<T>(_ body: () throws -> T) rethrows -> (T, UInt64, Int) {
        let faults = minor()
        let (result, ns) = try Nanoseconds.time(body)
        return (result, ns, minor() - faults)
    }
}
