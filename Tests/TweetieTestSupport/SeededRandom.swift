/// The tests' deterministic pseudo-random generator, so that a failure reproduces from its seed.
///
/// It is SplitMix64, the algorithm of TweetieSync's `SplitMix64` (the simulation's generator,
/// which test targets that link TweetieSync may use directly): TweetieDBTests must not depend on
/// TweetieSync, hence this one for every test target. `SplitMix64Tests` checks that both give
/// the same sequence.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
