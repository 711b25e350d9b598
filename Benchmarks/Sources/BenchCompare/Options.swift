import Foundation

/// BenchCompare's command line.
///
/// ```swift
/// let options = try Options.parse(["--quick"])
/// ```
struct Options {
    var quick = false
    var bulkN = 100_000
    var bulkRepetitions = 3
    var smallCommits = 300
    var sizes = [10_000, 100_000, 1_000_000]
    var notifyCommits = 30
    var grdbNotifyCommitsLarge = 10
    var crossCommits = 200
    var exportN = 1_000_000
    var recordN = 100_000
    var recordRounds = 5
    var output = "../BENCHMARKS.md"
    var viewModelEveryRowCommitsLarge = 10
    var suites: Set<String> = ["bulk", "commits", "reads", "notify", "cross", "export", "records", "viewmodels"]

    static let usage = """
        usage: BenchCompare [--quick] [--sizes 10000,100000] [--bulk N] [--commits N] [--notify-commits N]
                            [--cross-commits N] [--export N] [--records N] [--record-rounds N]
                            [--only bulk,commits,reads,notify,cross,export,records,viewmodels]
                            [--output PATH]
               BenchCompare --child-writer STORE_PATH   (internal: the cross-process writer)
          --quick   small sizes (bulk 20k, reads/notify at 10k and 100k, export 100k, records 20k) — a few minutes
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw SuiteErrorCLI("\(flag) needs a value\n\(usage)") }
            return v
        }
        func int(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let n = Int(text.replacingOccurrences(of: "_", with: "")), n > 0 else { throw SuiteErrorCLI("\(flag): '\(text)' is not a positive integer") }
            return n
        }
        // --quick first, so explicit flags override it wherever they stand.
        if arguments.contains("--quick") {
            options.quick = true
            options.bulkN = 20_000
            options.smallCommits = 100
            options.sizes = [10_000, 100_000]
            options.notifyCommits = 20
            options.grdbNotifyCommitsLarge = 10
            options.exportN = 100_000
            options.recordN = 20_000
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--quick": break
            case "--bulk": options.bulkN = try int(flag)
            case "--commits": options.smallCommits = try int(flag)
            case "--notify-commits": options.notifyCommits = try int(flag)
            case "--cross-commits": options.crossCommits = try int(flag)
            case "--export": options.exportN = try int(flag)
            case "--records": options.recordN = try int(flag)
            case "--record-rounds": options.recordRounds = try int(flag)
            case "--output": options.output = try value(flag)
            case "--sizes":
                options.sizes = try value(flag).split(separator: ",").map { part in
                    guard let n = Int(part.replacingOccurrences(of: "_", with: "")), n > 0 else { throw SuiteErrorCLI("--sizes: '\(part)' is not a positive integer") }
                    return n
                }
            case "--only":
                let names = Set(try value(flag).split(separator: ",").map(String.init))
                let unknown = names.subtracting(options.suites)
                guard unknown.isEmpty else { throw SuiteErrorCLI("--only: unknown suite(s) \(unknown.sorted()); known: bulk, commits, reads, notify, cross, export, records, viewmodels") }
                options.suites = names
            case "-h", "--help": throw SuiteErrorCLI(usage)
            default: throw SuiteErrorCLI("unknown argument '\(flag)'\n\(usage)")
            }
        }
        return options
    }
}

/// A command-line error: printed, exit status 2.
struct SuiteErrorCLI: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
