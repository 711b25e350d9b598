import BenchSupport
import Foundation
import TweetieDB

// TransferLoop: suite 6's `exportNDJSON` and `importNDJSON` alone, to watch under perf.
//
//   TransferLoop [--records N] [--rounds N] [--only export|import]
//
// It fills a store with N synthetic tweets, exports it once to a file, then repeats the measured
// step `--rounds` times: an export to the same file, or an import of the file into a fresh store.
// Each round prints its records/s and the CPU time on all threads.

var records = 200_000, rounds = 3
var only: String?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("TransferLoop: \(flag) needs a value\n".utf8))
        exit(2)
    }
    switch flag {
    case "--records": records = Int(value) ?? records
    case "--rounds": rounds = Int(value) ?? rounds
    case "--only":
        guard value == "export" || value == "import" else {
            FileHandle.standardError.write(Data("TransferLoop: --only: '\(value)' is not export or import\n".utf8))
            exit(2)
        }
        only = value
    default:
        FileHandle.standardError.write(Data("TransferLoop: unknown flag \(flag)\n".utf8))
        exit(2)
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func measure(_ label: String, _ body: () throws -> Int) rethrows {
    let cpu = cpuSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    let count = try body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let used = cpuSeconds() - cpu
    print("\(label): \(count) records in \(String(format: "%.3f", seconds)) s = \(Int(Double(count) / seconds))/s; CPU \(String(format: "%.3f", used)) s = \(String(format: "%.2f", used * 1e6 / Double(count))) µs/record")
}

let source = try TweetieFixture(durability: .noSync)
defer { source.close() }
try source.fill(count: records)
let file = source.path + ".ndjson"
defer { unlink(file) }
_ = try Suites.tweetieExportNDJSON(store: source.store, to: file)
FileHandle.standardError.write(Data("rounds begin\n".utf8))
for round in 1...rounds {
    if only != "import" {
        try measure("export \(round)") { try Suites.tweetieExportNDJSON(store: source.store, to: file) }
    }
    if only != "export" {
        let target = try TweetieFixture(durability: .noSync)
        try measure("import \(round)") { try Suites.tweetieImportNDJSON(from: file, into: target.store) }
        target.close()
    }
}
