import Foundation
import TweetieFuzzing

/// The command line of `tweetie-fuzz`.
struct FuzzOptions {
    var targets: [FuzzTarget] = FuzzTarget.allCases
    var seconds = 60.0
    var seed: UInt64 = 1
    var timeout = 10.0
    var fixtures: String? = ProcessInfo.processInfo.environment["TWEETIE_FIXTURES"].flatMap { $0.isEmpty ? nil : $0 }
    var work = ".fuzz"
    var corpusOut: String?
    var corpusMax = 10
    var worker = false

    static let usage = """
        usage: tweetie-fuzz [--targets statuses,members,users,ndjson] [--seconds N] [--seed N]
                            [--timeout SECONDS] [--fixtures DIR] [--work DIR] [--corpus-out DIR] [--corpus-max N]

        Deterministic, coverage-free mutation fuzzing of Twitter JSON decoding and NDJSON import.
        --seconds   time per target (default 60)       --timeout  per-input time bound (default 10 s)
        --fixtures  captured Twitter responses used as extra seeds (default $TWEETIE_FIXTURES)
        --work      where crash, hang and finding inputs are written (default .fuzz)
        --corpus-out  write a small diverse set of inputs (from seeds made in code) there
        Exit status: 0 when nothing misbehaved, 1 when a crash, hang or finding was recorded, 2 on usage errors.
        """

    static func parse(_ arguments: [String]) -> FuzzOptions {
        var options = FuzzOptions()
        var rest = arguments[...]
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("tweetie-fuzz: \(message)\n\(usage)\n".utf8))
            exit(2)
        }
        func value(_ flag: String) -> String {
            guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--targets":
                let names = value(argument).split(separator: ",").map(String.init)
                options.targets = names.map { name in
                    guard let target = FuzzTarget(rawValue: name) else { fail("unknown target '\(name)'") }
                    return target
                }
            case "--seconds": guard let v = Double(value(argument)), v > 0 else { fail("--seconds must be a positive number") }; options.seconds = v
            case "--seed": guard let v = UInt64(value(argument)) else { fail("--seed must be a non-negative integer") }; options.seed = v
            case "--timeout": guard let v = Double(value(argument)), v > 0 else { fail("--timeout must be a positive number") }; options.timeout = v
            case "--fixtures": options.fixtures = value(argument)
            case "--work": options.work = value(argument)
            case "--corpus-out": options.corpusOut = value(argument)
            case "--corpus-max": guard let v = Int(value(argument)), v >= 0 else { fail("--corpus-max must be a non-negative integer") }; options.corpusMax = v
            case "--worker": options.worker = true
            case "-h", "--help": print(usage); exit(0)
            default: fail("unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// The arguments that reproduce these options for a worker process fuzzing `target`.
    func workerArguments(target: FuzzTarget, seconds: Double, seed: UInt64) -> [String] {
        var arguments = ["--worker", "--targets", target.rawValue, "--seconds", String(seconds), "--seed", String(seed),
                         "--timeout", String(timeout), "--work", work, "--corpus-max", String(corpusMax)]
        if let fixtures { arguments += ["--fixtures", fixtures] }
        if let corpusOut { arguments += ["--corpus-out", corpusOut] }
        return arguments
    }
}
