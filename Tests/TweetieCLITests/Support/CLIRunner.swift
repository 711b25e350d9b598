import Foundation
import TweetieTestSupport

/// Runs the built `tweetie-db` executable as a separate process (through TweetieTestSupport's
/// `ChildProcess`), never with the caller's `TWEETIE_DB`.
enum CLI {
    typealias Result = ProcessResult

    /// The executable next to the test bundle, in the build products directory.
    static let executable = ChildProcess.builtProduct("tweetie-db")

    /// Runs `tweetie-db arguments…` to completion (bounded by `timeout` seconds) with optional stdin.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], timeout: Double = 120,
                    executable: URL = CLI.executable) throws -> Result {
        var variables: [String: String?] = ["TWEETIE_DB": nil]
        for (name, value) in environment { variables[name] = value }
        return try ChildProcess.run(executable, arguments, stdin: stdin, environment: variables, timeout: timeout)
    }

    /// Starts `tweetie-db arguments…` and returns it running, with its stdout readable line by line.
    static func start(_ arguments: [String]) throws -> RunningProcess {
        try ChildProcess.start(executable, arguments)
    }
}

extension TemporaryDirectory {
    /// A path for a database directory that does not exist yet: the command creates it.
    static func database() -> TemporaryDirectory { TemporaryDirectory("cli", create: false) }
}
