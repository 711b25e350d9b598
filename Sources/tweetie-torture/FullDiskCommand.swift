import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `tweetie-torture full-disk`: runs `tweetie-db` on a small, full tmpfs — creating a database,
/// reading and verifying an intact one — and checks that nothing crashes, nothing intact is called
/// corrupt, and no database is left unusable once space is freed.
struct FullDiskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "full-disk",
        abstract: "Run tweetie-db on a full tmpfs: no crash (SIGBUS), no 'corrupt' for an intact database, no database left unusable.",
        discussion: """
            Needs root: it mounts a small tmpfs under a temporary directory. For each amount of free \
            space (0 bytes to --max-free, in steps of --step) it fills the tmpfs with a filler file, then \
            (1) creates a database there with 'sync --simulated', which must succeed or fail with a \
            message and no signal; after the filler is removed, a second 'sync' must succeed and \
            'verify' pass; (2) on a full disk, runs 'stats', 'verify' and 'tweets list' on an intact \
            database, with its lock.mdb and without it: each must succeed or fail with a no-space \
            message, never die by a signal and never call the database corrupt. Exits 1 on any \
            failure, 2 when tmpfs cannot be mounted.
            """)

    @Option(name: .customLong("size-kib"), help: "The tmpfs size in KiB.")
    var sizeKiB: Int = 2048

    @Option(name: .customLong("max-free"), help: "The largest free space tried, in bytes.")
    var maxFree: Int = 32_768

    @Option(help: "The free-space step, in bytes.")
    var step: Int = 4096

    @Flag(help: "Print one line per probe on stderr.")
    var verbose = false

    func validate() throws {
        if sizeKiB < 512 { throw ValidationError("--size-kib must be at least 512.") }
        if maxFree < 0 || step < 1 { throw ValidationError("--max-free must not be negative and --step must be positive.") }
    }

    func run() throws {
        guard let tweetieDB = Executables.tweetieDB else {
            throw TortureError("tweetie-db is not built next to tweetie-torture; run 'swift build' first")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-full-disk-\(getpid())").path
        let mount = root + "/mnt"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        defer {
            _ = umount2(mount, Int32(MNT_DETACH))
            try? FileManager.default.removeItem(atPath: root)
        }
        var probes = FullDiskProbes(tweetieDB: tweetieDB, mount: mount, sizeKiB: sizeKiB, verbose: verbose)
        guard probes.remount() else {
            Out.error("full-disk: cannot mount a tmpfs at \(mount) (\(String(cString: strerror(errno)))); run as root where mount is allowed")
            throw ExitCode(2)
        }
        for free in stride(from: 0, through: maxFree, by: step) {
            probes.creation(free: free)
            probes.intactReads(free: free)
        }
        Out.line("full-disk: \(probes.runs) command runs, \(probes.failures.count) failure(s)")
        for failure in probes.failures { Out.line("  FAIL \(failure)") }
        if !probes.failures.isEmpty { throw ExitCode(1) }
    }
}
