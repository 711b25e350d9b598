import Testing
@testable import TweetieSync
import TweetieTestSupport

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test func matchesTheReferenceSequence() {
        // Published SplitMix64 outputs for state 0 (the algorithm is fully specified, so these
        // values are the same on every platform and process).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    /// The tests' generator (`SeededRandom`, in TweetieTestSupport for the targets that do not link
    /// TweetieSync) is the same algorithm: one sequence for one seed.
    @Test func theTestsGeneratorGivesTheSameSequence() {
        for seed: UInt64 in [0, 7, 2026, .max] {
            var library = SplitMix64(seed: seed), tests = SeededRandom(seed: seed)
            for _ in 0..<100 { #expect(library.next() == tests.next()) }
        }
    }

    @Test func intStaysInRangeAndCoversIt() {
        var rng = SplitMix64(seed: 11)
        var seen = Set<Int>()
        for _ in 0..<1_000 {
            let value = rng.int(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
    }
}
