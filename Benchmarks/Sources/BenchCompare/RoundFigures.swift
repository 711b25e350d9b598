import BenchSupport

/// One measure (upsert or scan) of suite 7: each variant's durations per round, as rates.
///
/// ```swift
/// let upsert = RoundFigures(n: 100_000, durations: result.upsert)
/// print(upsert.figure(.macro), upsert.ratio(.macro, .tweet))
/// ```
struct RoundFigures {
    let n: Int
    let durations: [Suites.RecordVariant: [UInt64]]

    /// The rate of one run of `ns` nanoseconds.
    func rate(ns: UInt64) -> Double { Double(n) / (Double(ns) / 1e9) }
    /// The median rate of `variant` (its median duration's rate).
    func rate(_ variant: Suites.RecordVariant) -> Double { rate(ns: LatencyStats(durations[variant]!).p50) }
    /// The median rate, formatted.
    func median(_ variant: Suites.RecordVariant) -> String { Format.rate(rate(variant)) }
    /// The slowest and fastest round's rates, formatted.
    func range(_ variant: Suites.RecordVariant) -> String {
        let rates = durations[variant]!.map { rate(ns: $0) }
        return "\(Format.rate(rates.min()!))–\(Format.rate(rates.max()!))"
    }
    /// "median (range)".
    func figure(_ variant: Suites.RecordVariant) -> String { "\(median(variant)) (\(range(variant)))" }
    /// Median rate of `variant` over median rate of `peer`.
    func ratio(_ variant: Suites.RecordVariant, _ peer: Suites.RecordVariant) -> Double { rate(variant) / rate(peer) }
    /// The lowest and highest of the per-round ratios `variant` / `peer`, formatted.
    func roundRatios(_ variant: Suites.RecordVariant, _ peer: Suites.RecordVariant) -> String {
        let ratios = zip(durations[variant]!, durations[peer]!).map { Double($1) / Double($0) }
        return "\(Format.ratio(ratios.min()!))–\(Format.ratio(ratios.max()!))"
    }
}
