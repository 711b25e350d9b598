import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TweetieTestSupport

/// `tweetie-db` where the environment is hostile: empty and
/// incomplete data files, full disks, read-only mounts and files, other users' databases and
/// resource limits. Tests that need root, a tmpfs mount or `chattr` skip with a message without them.
@Suite("tweetie-db on a hostile disk and host", .serialized)
struct HostileStorageCLITests {
    static let readCommands: [[String]] = [["verify"], ["stats"], ["tweets", "list"], ["users"], ["export"], ["feed", "list", "--once"]]

    // MARK: Item 2 and 4: empty and incomplete data files

    @Test func readCommandsRefuseAnEmptyDataFileAndCreateNothing() throws {
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        try FileManager.default.createDirectory(atPath: db.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: db.path + "/data.mdb", contents: Data())
        for command in Self.readCommands {
            let result = try CLI.run(command + ["--db", db.path])
            #expect(result.status != 0, "\(command) accepted an empty data.mdb: \(result.output)")
            #expect(result.stderr.contains("data.mdb is empty (0 bytes)") && result.stderr.contains(db.path), "\(command): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: db.path) == ["data.mdb"], "a read command created files")
        #expect(try FileManager.default.attributesOfItem(atPath: db.path + "/data.mdb")[.size] as? Int == 0)
    }

    /// The state ENOSPC leaves while LMDB writes a new file's two meta pages: the first page only.
    @Test func aCreationCutShortIsRefusedByReadsAndCompletedByTheNextWrite() throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        var firstPage = try Data(contentsOf: URL(fileURLWithPath: db.path + "/data.mdb")).prefix(4096)
        firstPage.replaceSubrange(144..<152, with: Data(count: 8))  // mm_txnid = 0, as a new file has
        try FileManager.default.removeItem(atPath: db.path)
        try FileManager.default.createDirectory(atPath: db.path, withIntermediateDirectories: true)
        try firstPage.write(to: URL(fileURLWithPath: db.path + "/data.mdb"))
        for command in [["verify"], ["stats"]] {
            let result = try CLI.run(command + ["--db", db.path])
            #expect(result.status != 0 && result.stderr.contains("data.mdb is incomplete (4096 bytes"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("not a valid LMDB file"), "\(result.stderr)")
        }
        let sync = try CLI.run(["sync", "--simulated", "--ticks", "1", "--db", db.path])
        #expect(sync.status == 0, "the next write did not complete the creation: \(sync.stderr)")
        let verify = try CLI.run(["verify", "--format", "table", "--db", db.path])
        #expect(verify.status == 0 && verify.output.hasPrefix("ok:"), "\(verify.stderr)")
    }

    @Test func creationOnAFullDiskFailsCleanlyAndIsCompletedOnceSpaceIsFreed() throws {
        guard let disk = try SmallDisk(kibibytes: 1024) else { return }
        defer { disk.remove() }
        var outcomes: [String] = []
        for free in stride(from: 0, through: 16_384, by: 4096) {
            let database = disk.path + "/db-\(free)"
            disk.fill(leaving: free)
            let first = try Shell.cli(["sync", "--simulated", "--ticks", "1", "--db", database])
            #expect(!first.crashed, "free \(free): sync died by a signal: \(first.stderr)")
            if first.status != 0 { #expect(first.stderr.contains("no space left on device"), "free \(free): \(first.stderr)") }
            outcomes.append("\(free): \(first.status)")
            disk.emptyFiller()
            let stats = try Shell.cli(["stats", "--db", database])
            #expect(!stats.stderr.contains("not a valid LMDB file"), "free \(free): \(stats.stderr)")
            let second = try Shell.cli(["sync", "--simulated", "--ticks", "1", "--db", database])
            #expect(second.status == 0, "free \(free): once space was freed, sync still fails: \(second.stderr)")
            let verify = try Shell.cli(["verify", "--format", "table", "--db", database])
            #expect(verify.status == 0, "free \(free): \(verify.stderr)")
            try? FileManager.default.removeItem(atPath: database)
        }
        #expect(outcomes.contains { !$0.hasSuffix(": 0") }, "no run hit the full disk: \(outcomes)")
    }

    // MARK: Item 3: full disk, no SIGBUS

    @Test func anIntactDatabaseOnAFullDiskIsReadWithoutACrash() throws {
        guard let disk = try SmallDisk(kibibytes: 2048) else { return }
        defer { disk.remove() }
        let database = disk.path + "/db"
        let created = try Shell.cli(["sync", "--simulated", "--ticks", "2", "--db", database])
        try #require(created.status == 0, "\(created.stderr)")
        // A copied database (or a reboot that cleared /run) has no lock file: LMDB creates it.
        try FileManager.default.removeItem(atPath: database + "/lock.mdb")
        disk.fill(leaving: 0)
        for command in [["stats"], ["verify"], ["tweets", "list", "--limit", "3"]] {
            let result = try Shell.cli(command + ["--db", database])
            #expect(!result.crashed, "\(command) died by a signal on a full disk: \(result.stderr)")
            #expect(!result.stderr.contains("corrupt"), "\(command) called an intact database corrupt: \(result.stderr)")
            #expect(result.status == 0 || result.stderr.contains("no space left on device"), "\(command): \(result.stderr)")
        }
        let fresh = try Shell.cli(["sync", "--simulated", "--ticks", "1", "--db", disk.path + "/new"])
        #expect(!fresh.crashed && fresh.status != 0 && fresh.stderr.contains("no space left on device"), "\(fresh.stderr)")
        disk.emptyFiller()
        let verify = try Shell.cli(["verify", "--format", "table", "--db", database])
        #expect(verify.status == 0 && verify.output.hasPrefix("ok:"), "\(verify.stderr)")
    }

    // MARK: Item 8: read-only databases

    @Test func aReadOnlyMountIsReadReadOnly() throws {
        guard let disk = try SmallDisk(kibibytes: 4096) else { return }
        defer { disk.remove() }
        let database = disk.path + "/db"
        try #require(try CLI.run(["sync", "--simulated", "--ticks", "2", "--db", database]).status == 0)
        guard disk.remount(readOnly: true) else {
            Issue.record("cannot remount the tmpfs read-only")
            return
        }
        for command in [["stats"], ["verify"], ["tweets", "list", "--limit", "2"]] {
            let result = try CLI.run(command + ["--db", database])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("note: opened \(database) read-only"), "\(command) did not say it read read-only: \(result.stderr)")
        }
        let write = try CLI.run(["sync", "--simulated", "--ticks", "1", "--db", database])
        #expect(write.status != 0 && write.stderr.contains("read-only file system"), "\(write.stderr)")
    }

    @Test func immutableFilesAreReadReadOnly() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer {
            _ = ChildProcess.status("/usr/bin/chattr", ["-i", db.path + "/data.mdb", db.path + "/lock.mdb"])
            db.remove()
        }
        guard ChildProcess.status("/usr/bin/chattr", ["+i", db.path + "/data.mdb", db.path + "/lock.mdb"]) == 0 else {
            print("skipped: chattr +i is not supported here")
            return
        }
        let result = try CLI.run(["stats", "--db", db.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("read-only") && result.stderr.contains("immutable"), "\(result.stderr)")
        let verify = try CLI.run(["verify", "--format", "table", "--db", db.path])
        #expect(verify.status == 0 && verify.output.hasPrefix("ok: 20 tweets"), "\(verify.stderr)")
    }

    @Test func anotherUsersReadOnlyFilesAreReadWithoutTheirLock() throws {
        guard let user = try TestUser.prepare() else { return }
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        chmod(db.path, 0o755)
        for file in ["data.mdb", "lock.mdb", "changes.notify"] { chmod(db.path + "/" + file, 0o444) }
        let result = try user.run(["stats", "--db", db.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: opened \(db.path) read-only") && result.stderr.contains("without the lock file"), "\(result.stderr)")
        // With write permission left for the owner, reading without the lock is not safe: refused.
        chmod(db.path + "/data.mdb", 0o644)
        let refused = try user.run(["stats", "--db", db.path])
        #expect(refused.status != 0 && refused.stderr.contains("permission denied") && refused.stderr.contains("lock.mdb"), "\(refused.stderr)")
    }

    // MARK: Item 9: permissions

    @Test func anUnprivilegedUserIsToldPermissionDenied() throws {
        guard let user = try TestUser.prepare() else { return }
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        chmod(db.path, 0o700)
        for command in [["stats"], ["verify"], ["tweets", "list"]] {
            let result = try user.run(command + ["--db", db.path])
            #expect(result.status != 0, "\(command)")
            #expect(result.stderr.contains("permission denied") && result.stderr.contains(db.path), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("has no data.mdb"), "\(command): \(result.stderr)")
        }
    }

    @Test func rootReadingAUsersDatabaseLeavesItsFilesToThatUser() throws {
        guard let user = try TestUser.prepare() else { return }
        let db = TemporaryDirectory.database()
        defer { db.remove() }
        try FileManager.default.createDirectory(atPath: db.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chown(db.path, user.uid, user.gid)
        let created = try user.run(["sync", "--simulated", "--ticks", "1", "--db", db.path])
        try #require(created.status == 0, "\(created.stderr)")
        // As after a restore by copying data.mdb alone: the lock and notification files are missing.
        for file in ["lock.mdb", "changes.notify"] { unlink(db.path + "/" + file) }
        let stats = try CLI.run(["stats", "--db", db.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        for file in try FileManager.default.contentsOfDirectory(atPath: db.path) {
            var status = stat()
            #expect(stat(db.path + "/" + file, &status) == 0 && status.st_uid == user.uid, "root left \(file) owned by uid \(status.st_uid)")
        }
        let again = try user.run(["sync", "--simulated", "--ticks", "1", "--db", db.path])
        #expect(again.status == 0, "the owner was locked out: \(again.stderr)")
    }

    // MARK: Item 11: resource limits

    @Test func aTightAddressSpaceLimitFailsFast() throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        for command in [["feed", "list", "--once"], ["sync", "--simulated", "--ticks", "1"], ["verify"]] {
            let started = Date()
            let result = try Shell.cli(command + ["--db", db.path], limits: "ulimit -v 100000", timeout: 60)
            #expect(result.status != 0 && !result.crashed, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("ulimit -v"), "\(command) did not name the limit: \(result.stderr)")
            #expect(Date().timeIntervalSince(started) < 30, "\(command) did not fail fast")
        }
    }

    @Test func verifyWorksWithFewFileDescriptorsAndFailsClearlyBelowWhatItNeeds() throws {
        let db = try StoreCommandsTests.seeded(30)
        defer { db.remove() }
        for limit in [17, 24, 64, 250] {
            let result = try Shell.cli(["verify", "--format", "table", "--db", db.path], limits: "ulimit -n \(limit)", timeout: 60)
            #expect(result.status == 0 && result.output.hasPrefix("ok: 30 tweets"), "ulimit -n \(limit): \(result.status) \(result.stderr)")
        }
        for limit in [4, 6, 8, 10] {
            let result = try Shell.cli(["verify", "--format", "table", "--db", db.path], limits: "ulimit -n \(limit)", timeout: 60)
            #expect(!result.crashed, "ulimit -n \(limit): verify died by a signal: \(result.stderr)")
            if result.status != 0 {
                #expect(result.stderr.contains("ulimit -n"), "ulimit -n \(limit): \(result.stderr)")
            }
        }
    }
}

extension CLI.Result {
    /// Whether the process died by a signal (or printed a crash report).
    var crashed: Bool { signal != nil || stderr.contains("Backtrac") || stderr.contains("Fatal error") }
}

/// Runs `tweetie-db` under shell limits.
enum Shell {
    /// Runs `tweetie-db arguments…` (through the shell, so that a death by signal shows in the status).
    static func cli(_ arguments: [String]) throws -> CLI.Result { try cli(arguments, limits: ":") }

    /// Runs `tweetie-db arguments…` after the shell commands `limits` (such as `ulimit -v 100000`).
    static func cli(_ arguments: [String], limits: String, prefix: [String] = [], timeout: Double = 120) throws -> CLI.Result {
        let quoted = (prefix + [CLI.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // `exec`: a timeout ends the command itself, and a death by signal shows in `signal`.
        return try CLI.run(["-c", "\(limits); exec \(quoted.joined(separator: " "))"], timeout: timeout, executable: URL(fileURLWithPath: "/bin/sh"))
    }
}

extension TestUser {
    /// Runs `tweetie-db arguments…` as this user.
    func run(_ arguments: [String]) throws -> CLI.Result {
        try Shell.cli(arguments, limits: "cd /", prefix: setpriv)
    }
}
