import Foundation

/// Fresh directory paths for benchmark databases, under `$TWEETIE_BENCH_DIR` or the temporary directory.
///
/// ```swift
/// let path = TemporaryPath.make("tweetie")
/// ```
public enum TemporaryPath {
    /// A new, not yet existing, path whose last component starts with `prefix`.
    ///
    /// ```swift
    /// let dir = TemporaryPath.make("raw")
    /// ```
    public static func make(_ prefix: String) -> String {
        let base = ProcessInfo.processInfo.environment["TWEETIE_BENCH_DIR"] ?? FileManager.default.temporaryDirectory.path
        return base + "/tweetie-bench-\(prefix)-\(UUID().uuidString)"
    }
}
