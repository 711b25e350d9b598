import BenchSupport
import Foundation
import TweetieDB

// StartLoop: suite 8's observation starts alone, to watch under perf.
//
//   StartLoop [--records N] [--rounds R] [--kinds fetch,store,viewmodel]
//
// It fills a list timeline of N tweets (suite 8's store), writes the line "starts begin" to stderr
// (a `write` to fd 2 that marks where the starts begin in a trace), then times R rounds of the
// chosen kinds, in suite 8's order: a fetch of the timeline, the store's sectioned observation's
// initial results, the view model's first update. It prints each kind's samples and median, and
// each start's ratio to the fetch's median.

var records = 100_000, rounds = 5
var kinds = Set(Suites.StartKind.allCases)
var arguments = CommandLine.arguments.dropFirst()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StartLoop: \(message)\n".utf8))
    exit(2)
}
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
    switch flag {
    case "--records":
        guard let parsed = Int(value), parsed > 0 else { fail("--records: '\(value)' is not a positive number") }
        records = parsed
    case "--rounds":
        guard let parsed = Int(value), parsed > 0 else { fail("--rounds: '\(value)' is not a positive number") }
        rounds = parsed
    case "--kinds":
        var chosen = Set<Suites.StartKind>()
        for name in value.split(separator: ",") {
            guard let kind = Suites.StartKind(rawValue: String(name)) else {
                fail("--kinds: '\(name)' is not one of \(Suites.StartKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            chosen.insert(kind)
        }
        guard !chosen.isEmpty else { fail("--kinds: name at least one kind") }
        kinds = chosen
    default:
        fail("unknown flag \(flag)")
    }
}

let fixture = try TweetieFixture(durability: .noSync)
defer { fixture.close() }
try Suites.fillListTimeline(fixture, count: records)
FileHandle.standardError.write(Data("starts begin\n".utf8))
let starts = try await Suites.observationStarts(store: fixture.store, expected: records, rounds: rounds, kinds: kinds)
func line(_ name: String, _ stats: LatencyStats?) {
    guard let stats else { return }
    var text = "\(name): \(stats.samples.map { Format.ms($0) }.joined(separator: ", ")); median \(Format.ms(stats.p50))"
    if name != "fetch", let fetch = starts.fetch { text += " = \(Format.ratio(Double(stats.p50) / Double(fetch.p50))) the fetch" }
    print(text)
}
print("\(records) records, \(rounds) rounds")
line("fetch", starts.fetch)
line("store start", starts.store)
line("view-model start", starts.viewModel)
