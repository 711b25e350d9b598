import Foundation
import Testing
import TweetieTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The tests' process runner (`SpawnedProcess`, used instead of `Foundation.Process`, whose
/// `run()` can crash on Linux): statuses, signals, pipes, environment, and no descriptor of the
/// test process leaking into the child.
@Suite("SpawnedProcess")
struct SpawnedProcessTests {
    static func shell(_ script: String, environment: [String: String]? = nil) -> SpawnedProcess {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = environment
        return process
    }

    @Test func exitStatusesAndSignalsAreReportedAsFoundationReportsThem() throws {
        let exits = Self.shell("exit 3")
        try exits.run()
        exits.waitUntilExit()
        #expect(exits.terminationReason == .exit && exits.terminationStatus == 3)

        let killed = Self.shell("kill -KILL $$")
        try killed.run()
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGKILL)

        let sleeping = Self.shell("exec sleep 30")
        try sleeping.run()
        #expect(sleeping.isRunning && sleeping.processIdentifier > 0)
        sleeping.terminate()
        sleeping.waitUntilExit()
        #expect(!sleeping.isRunning)
        #expect(sleeping.terminationReason == .uncaughtSignal && sleeping.terminationStatus == SIGTERM)
    }

    @Test func pipesCarryStandardInputOutputAndErrorAndTheEnvironmentIsTheChilds() throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "read line; echo \"$line\" | tr a-z A-Z; echo \"$GREETING\" >&2"],
                                          stdin: Data("hello\n".utf8), environment: ["GREETING": "salut"])
        #expect(result.status == 0 && result.output == "HELLO\n" && result.stderr == "salut\n", "\(result)")

        let bare = Self.shell("echo \"${HOME:-none}\" >&2", environment: ["PATH": "/usr/bin:/bin"])
        let err = Pipe()
        bare.standardError = err
        bare.standardOutput = nil
        try bare.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bare.waitUntilExit()
        #expect(text == "none\n" && bare.terminationStatus == 0, "\(text)")
    }

    /// A pipe's reader sees its end only when every writer closed it: a leaked descriptor in a
    /// child keeps it open. The child must see 0, 1 and 2 and nothing else of this process.
    @Test func theChildInheritsNoDescriptorBeyondTheStandardThree() throws {
        let held = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: Process-era children inherited it
        try #require(held >= 3)
        defer { close(held) }
        #expect(SpawnedProcess.openDescriptors().contains(held))
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/$$/fd"])
        let descriptors = Set(result.output.split(separator: "\n").compactMap { Int32($0) })
        // The shell's own: the three, and at most the directory it lists.
        #expect(descriptors.isSuperset(of: [0, 1, 2]) && !descriptors.contains(held), "\(result.output)")
        #expect(descriptors.subtracting([0, 1, 2]).count <= 1, "\(result.output)")
    }

    @Test func aMissingProgramIsAnErrorNotACrash() {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/program-\(UUID())")
        #expect(throws: SpawnError.self) { try process.run() }
    }
}
