/// A small, fast, seedable pseudo-random generator (SplitMix64) whose sequence is the same
/// on every platform and in every process for the same seed.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &rng)   // same value on every run
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator from a seed.
    ///
    /// ```swift
    /// var rng = SplitMix64(seed: 7)
    /// ```
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// ```swift
    /// let bits = rng.next()
    /// ```
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (rejection sampling: exact and portable).
    ///
    /// Used instead of `Int.random(in:using:)` so that the simulation's sequence never depends
    /// on the standard library's sampling algorithm.
    ///
    /// ```swift
    /// let minutes = rng.int(in: 10...180)
    /// ```
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }
        let limit = UInt64.max - UInt64.max % span
        var value = next()
        while value >= limit { value = next() }
        return range.lowerBound + Int(value % span)
    }

    /// `true` with probability `percent`/100.
    ///
    /// ```swift
    /// if rng.chance(percent: 25) { editText() }
    /// ```
    public mutating func chance(percent: Int) -> Bool {
        int(in: 0...99) < percent
    }

    /// A uniformly chosen element of a non-empty array.
    ///
    /// ```swift
    /// let topic = rng.pick(["Swift", "Rx"])
    /// ```
    public mutating func pick<T>(_ elements: [T]) -> T {
        precondition(!elements.isEmpty, "SplitMix64.pick needs a non-empty array")
        return elements[int(in: 0...(elements.count - 1))]
    }
}
