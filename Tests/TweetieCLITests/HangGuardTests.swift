import Foundation
import Testing
import TweetieTestSupport

/// The tests' hang guard (`withTimeout`): it returns what the body returns, and fails a body that
/// never finishes, counting only time in which tasks could run.
@Suite("withTimeout")
struct HangGuardTests {
    @Test func aBodyThatFinishesReturnsItsValue() async throws {
        #expect(try await withTimeout("a quick body", seconds: 5) { 42 } == 42)
    }

    @Test func aBodyThatNeverFinishesTimesOut() async {
        let started = ContinuousClock.now
        await #expect(throws: TimedOut.self) {
            try await withTimeout("a hung body", seconds: 0.3) {
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        // The guard gave up after its 0.3 s of runnable time, not after the body's hour. Its clock
        // stops while the cooperative pool is saturated (on a loaded 2-core machine, with the whole
        // suite running, that was once 768 s of wall time), so the bound is the hour, not a guess
        // at the load.
        #expect(ContinuousClock.now - started < .seconds(3_000))
    }
}
