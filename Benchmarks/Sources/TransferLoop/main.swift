import BenchSupport
import Foundation
import TweetieDB

// TransferLoop: suite 6's `exportNDJSON` and `importNDJSON` alone, to watch under perf.
//
//   TransferLoop [--records N] [--rounds N] [--only export|import] [--churn MIB] [--durability D]
//                [--type tweet|macro]
//
// It fills a store with N synthetic tweets (`--type macro`: as suite 7's `@Record` type
// `MacroTweet`, a record type declared as a user declares one, whose JSON `@Record` writes),
// exports it once to a file, then repeats the measured
// step `--rounds` times: an export to a new file of the same name (the last one removed before
// the clock starts), or an import of the file into a fresh store.
// Each round prints its records/s and the CPU time on all threads. The import's store has
// durability `--durability` (full, noMetaSync or noSync; noSync unless given; BenchCompare's
// suite 6 imports into a `.full` store).
//
// `--churn MIB`: before each round, touch MIB MiB of fresh anonymous memory, unmap it and wait
// 3 s. On a VM that reports free pages to its host (virtio-balloon free page reporting), memory
// a process frees goes back to the host, and touching it again costs a fault in the host as well:
// the state a long run such as BenchCompare leaves, which a fresh TransferLoop does not.

var records = 200_000, rounds = 3, churn = 0
var durability = StoreConfiguration.Durability.noSync
var only: String?
var type = "tweet"
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("TransferLoop: \(flag) needs a value\n".utf8))
        exit(2)
    }
    switch flag {
    case "--records": records = Int(value) ?? records
    case "--rounds": rounds = Int(value) ?? rounds
    case "--churn": churn = Int(value) ?? churn
    case "--durability":
        guard let parsed = StoreConfiguration.Durability(rawValue: value) else {
            FileHandle.standardError.write(Data("TransferLoop: --durability: '\(value)' is not full, noMetaSync or noSync\n".utf8))
            exit(2)
        }
        durability = parsed
    case "--type":
        guard value == "tweet" || value == "macro" else {
            FileHandle.standardError.write(Data("TransferLoop: --type: '\(value)' is not tweet or macro\n".utf8))
            exit(2)
        }
        type = value
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

/// A fresh store of the measured type, holding `count` records.
func makeFixture(_ type: String, durability: StoreConfiguration.Durability, count: Int) throws -> TweetieFixture {
    if type == "macro" { return try Suites.macroTweetFixture(durability: durability, count: count) }
    let fixture = try TweetieFixture(durability: durability)
    try fixture.fill(count: count)
    return fixture
}

let source = try makeFixture(type, durability: .noSync, count: records)
defer { source.close() }
let file = source.path + ".ndjson"
defer { unlink(file) }
_ = try Suites.tweetieExportNDJSON(store: source.store, to: file)
FileHandle.standardError.write(Data("rounds begin\n".utf8))
/// Touches `mebibytes` of fresh memory, gives it back, and waits for the host to take it.
func churnMemory(_ mebibytes: Int) {
    guard mebibytes > 0 else { return }
    let size = mebibytes << 20
    guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED else { return }
    for offset in stride(from: 0, to: size, by: 4096) { memory.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
    munmap(memory, size)
    sleep(3)
}

for round in 1...rounds {
    churnMemory(churn)
    if only != "import" {
        // Into a new file, as BenchCompare's suite 6 exports: truncating the last round's
        // output (hundreds of MB of page cache) took up to half a second inside the timing.
        unlink(file)
        try measure("export \(round)") { try Suites.tweetieExportNDJSON(store: source.store, to: file) }
    }
    if only != "export" {
        let target = try makeFixture(type, durability: durability, count: 0)
        try measure("import \(round)") { try Suites.tweetieImportNDJSON(from: file, into: target.store) }
        target.close()
    }
}
