import Testing
@testable import TweetieServe

/// Raising `RLIMIT_NOFILE` for many connections: never lowered, and a clear error past what the
/// system allows.
@Suite("FileDescriptorLimit raises the open-file limit or says why it cannot")
struct FileDescriptorLimitTests {
    @Test func aLimitAlreadyHighEnoughIsLeftAsItIs() throws {
        let before = FileDescriptorLimit.current
        #expect(try FileDescriptorLimit.raise(toAtLeast: before.soft / 2) == before)
        #expect(FileDescriptorLimit.current == before)
    }

    @Test func pastWhatTheSystemAllowsItThrowsAndNamesTheNumbers() throws {
        // Above fs.nr_open (at most 2^30 on Linux), which even root cannot pass.
        let needed = UInt64(Int32.max)
        let error = #expect(throws: FileDescriptorLimit.TooLow.self) { try FileDescriptorLimit.raise(toAtLeast: needed) }
        #expect(error?.needed == needed)
        #expect(error?.description.contains("\(needed) file descriptors are needed") == true)
        #expect(error?.description.contains("hard limit \(FileDescriptorLimit.current.hard)") == true)
        // It raised the soft limit as far as it could.
        #expect(FileDescriptorLimit.current.soft == FileDescriptorLimit.current.hard)
    }
}
