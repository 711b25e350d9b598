/// Order statistics of a set of durations (nanoseconds).
///
/// ```swift
/// let stats = LatencyStats([1_000, 2_000, 3_000])
/// print(stats.p50, stats.p99)
/// ```
public struct LatencyStats: Sendable, CustomStringConvertible {
    /// The sorted samples.
    ///
    /// ```swift
    /// print(stats.samples.count)
    /// ```
    public let samples: [UInt64]

    /// Statistics of `samples` (any order; at least one).
    ///
    /// ```swift
    /// let stats = LatencyStats(latencies)
    /// ```
    public init(_ samples: [UInt64]) {
        precondition(!samples.isEmpty, "LatencyStats needs at least one sample")
        self.samples = samples.sorted()
    }

    /// The `q` quantile (0...1), nearest rank.
    ///
    /// ```swift
    /// let p90 = stats.quantile(0.9)
    /// ```
    public func quantile(_ q: Double) -> UInt64 {
        let rank = Int((q * Double(samples.count)).rounded(.up)) - 1
        return samples[min(samples.count - 1, max(0, rank))]
    }

    /// The median.
    ///
    /// ```swift
    /// print(stats.p50)
    /// ```
    public var p50: UInt64 { quantile(0.5) }
    /// The 99th percentile.
    ///
    /// ```swift
    /// print(stats.p99)
    /// ```
    public var p99: UInt64 { quantile(0.99) }
    /// The mean.
    ///
    /// ```swift
    /// print(stats.mean)
    /// ```
    public var mean: Double { Double(samples.reduce(0, +)) / Double(samples.count) }

    /// `p50 … p99 (n samples)` in milliseconds.
    ///
    /// ```swift
    /// print(stats)
    /// ```
    public var description: String {
        "p50 \(Format.ms(p50)) p99 \(Format.ms(p99)) (\(samples.count) samples)"
    }
}

/// Number formatting for the report.
///
/// ```swift
/// Format.ms(1_500_000) // "1.50 ms"
/// ```
public enum Format {
    /// Nanoseconds as milliseconds with three significant-ish digits.
    ///
    /// ```swift
    /// Format.ms(250_000) // "0.250 ms"
    /// ```
    public static func ms(_ ns: UInt64) -> String { ms(Double(ns)) }

    /// Nanoseconds as milliseconds.
    ///
    /// ```swift
    /// Format.ms(2.5e6) // "2.50 ms"
    /// ```
    public static func ms(_ ns: Double) -> String {
        let value = ns / 1e6
        if value >= 100 { return "\(fixed(value, 0)) ms" }
        if value >= 1 { return "\(fixed(value, 2)) ms" }
        return "\(fixed(value, 3)) ms"
    }

    /// A rate with a thousands separator.
    ///
    /// ```swift
    /// Format.rate(123456.7) // "123,457/s"
    /// ```
    public static func rate(_ perSecond: Double) -> String { "\(grouped(Int(perSecond.rounded())))/s" }

    /// An integer with `,` thousands separators.
    ///
    /// ```swift
    /// Format.grouped(1000000) // "1,000,000"
    /// ```
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// `value` with `decimals` digits after the point.
    ///
    /// ```swift
    /// Format.fixed(3.14159, 2) // "3.14"
    /// ```
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if text.contains("e") { return text }
        if decimals == 0 {
            return String(Int(rounded))
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        text = String(parts[0]) + "." + (fraction + String(repeating: "0", count: decimals)).prefix(decimals)
        return text
    }

    /// A ratio like `0.42×`.
    ///
    /// ```swift
    /// Format.ratio(2.0) // "2.00×"
    /// ```
    public static func ratio(_ value: Double) -> String { "\(fixed(value, value >= 100 ? 0 : 2))×" }
}
