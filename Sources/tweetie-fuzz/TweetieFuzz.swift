import Foundation
import TweetieFuzzing

/// `tweetie-fuzz`: a supervisor that runs one worker process per target for a bounded time,
/// restarting a worker that crashed or hung and keeping the input that did it.
@main
struct TweetieFuzz {
    static func main() {
        let options = FuzzOptions.parse(Array(CommandLine.arguments.dropFirst()))
        if options.worker {
            exit(FuzzWorker(options: options).run())
        }
        exit(supervise(options))
    }

    static func supervise(_ options: FuzzOptions) -> Int32 {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        try? FileManager.default.createDirectory(atPath: options.work + "/findings", withIntermediateDirectories: true)
        var failed = false
        for target in options.targets {
            let deadline = Date().addingTimeInterval(options.seconds)
            var seed = options.seed
            var restarts = 0
            while deadline.timeIntervalSinceNow > 1, restarts <= 5 {
                let process = Process()
                process.executableURL = executable
                process.arguments = options.workerArguments(target: target, seconds: deadline.timeIntervalSinceNow, seed: seed)
                do { try process.run() } catch {
                    print("tweetie-fuzz: cannot start a worker: \(error)")
                    return 1
                }
                process.waitUntilExit()
                let current = FuzzWorker.currentInputPath(work: options.work, target: target)
                switch (process.terminationReason, process.terminationStatus) {
                case (.exit, 0):
                    try? FileManager.default.removeItem(atPath: current)
                    restarts = 6
                case (.exit, FuzzWorker.exitFindings):
                    failed = true
                    restarts = 6
                case (.exit, FuzzWorker.exitHang):
                    failed = true
                    restarts += 1
                default:
                    failed = true
                    restarts += 1
                    let kept = "\(options.work)/findings/crash-\(target.rawValue)-seed\(seed).\(target.fileExtension)"
                    try? FileManager.default.removeItem(atPath: kept)
                    try? FileManager.default.moveItem(atPath: current, toPath: kept)
                    print("CRASH target=\(target.rawValue) seed=\(seed) reason=\(process.terminationReason == .uncaughtSignal ? "signal" : "exit") status=\(process.terminationStatus) input=\(kept)")
                }
                seed &+= 1_000_003
            }
        }
        return failed ? 1 : 0
    }
}
