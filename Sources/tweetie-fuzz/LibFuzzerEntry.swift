#if FUZZING
import Foundation
import TweetieDB
import TweetieFuzzing

// The libFuzzer entry point, compiled only with `-D FUZZING` (see `make fuzz-libfuzzer`). The
// target comes from TWEETIE_FUZZ_TARGET (statuses, members, users, ndjson; default statuses).
// A misbehaviour (a FuzzFinding) is turned into a crash so that libFuzzer keeps the input.

nonisolated(unsafe) private var importOracle: ImportFuzzOracle?
private let fuzzTarget = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["TWEETIE_FUZZ_TARGET"] ?? "statuses") ?? .statuses

@_cdecl("LLVMFuzzerTestOneInput")
public func tweetieFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    do {
        if fuzzTarget == .ndjson {
            if importOracle == nil { importOracle = try ImportFuzzOracle() }
            _ = try importOracle!.run(bytes, mode: ImportFuzzOracle.mode(for: bytes))
        } else {
            _ = try JSONFuzzOracle(target: fuzzTarget).run(bytes)
        }
    } catch {
        fatalError("tweetie-fuzz finding (\(fuzzTarget.rawValue)): \(error)")
    }
    return 0
}
#endif
