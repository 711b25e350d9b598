import Foundation
import TweetieDB
import TweetieSync

/// The writer process of the cross-process suite.
///
/// The parent opens the store, spawns this process (``spawn(storePath:)``) and, for each commit,
/// writes one line to its standard input; the child then commits one new tweet whose
/// `favoriteCount` holds CLOCK_REALTIME (ns) taken just before the commit, and whose `created` is
/// the newest, so it lands at row 0 of the timeline. End of input ends the child.
///
/// ```swift
/// let child = try ChildWriter.spawn(storePath: fixture.path)
/// try child.trigger()
/// child.finish()
/// ```
public final class ChildWriter: @unchecked Sendable {
    /// The command-line flag that turns `BenchCompare` into the child: `--child-writer PATH`.
    ///
    /// ```swift
    /// if CommandLine.arguments.dropFirst().first == ChildWriter.flag { … }
    /// ```
    public static let flag = "--child-writer"
    /// The environment variable that turns the package-benchmark executable into the child.
    ///
    /// ```swift
    /// ProcessInfo.processInfo.environment[ChildWriter.environmentKey]
    /// ```
    public static let environmentKey = "TWEETIE_BENCH_CHILD_WRITER"
    /// The first id the child writes.
    ///
    /// ```swift
    /// print(ChildWriter.firstID)
    /// ```
    public static let firstID: Int64 = 1_000_000_000

    private let process: Process
    private let input: FileHandle

    private init(process: Process, input: FileHandle) {
        self.process = process
        self.input = input
    }

    /// Runs the child loop on the store at `path` until standard input ends; returns the exit code.
    ///
    /// ```swift
    /// exit(ChildWriter.run(storePath: path))
    /// ```
    public static func run(storePath path: String) -> Int32 {
        do {
            let store = try Store.open(at: path, configuration: TweetieFixture.configuration(durability: .full), collections: [Tweet.self])
            defer { store.close() }
            let generator = TweetGenerator()
            var id = firstID
            while readLine() != nil {
                var tweet = generator.tweet(id: id)
                tweet.created = Date(timeIntervalSince1970: 4_000_000_000 + Double(id - firstID))
                tweet.favoriteCount = Int(Nanoseconds.realtime())
                try store.write { tx in try tx.add(tweet, update: .all) }
                id += 1
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("child writer: \(error)\n".utf8))
            return 1
        }
    }

    /// Starts this executable again as the child writer of the store at `storePath`
    /// (through the `--child-writer` flag, or the environment variable when `viaEnvironment`).
    ///
    /// ```swift
    /// let child = try ChildWriter.spawn(storePath: path)
    /// ```
    public static func spawn(storePath: String, viaEnvironment: Bool = false) throws -> ChildWriter {
        let process = Process()
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: executable)
        var environment = ProcessInfo.processInfo.environment
        if viaEnvironment {
            environment[environmentKey] = storePath
            process.arguments = []
        } else {
            process.arguments = [flag, storePath]
        }
        process.environment = environment
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        return ChildWriter(process: process, input: pipe.fileHandleForWriting)
    }

    /// Asks the child for one commit.
    ///
    /// ```swift
    /// try child.trigger()
    /// ```
    public func trigger() throws {
        try input.write(contentsOf: Data("c\n".utf8))
    }

    /// Closes the child's input and waits for it to exit; returns its exit status.
    ///
    /// ```swift
    /// let status = child.finish()
    /// ```
    @discardableResult
    public func finish() -> Int32 {
        try? input.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
