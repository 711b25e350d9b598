import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The probes of ``FullDiskCommand``, on one tmpfs mount point.
struct FullDiskProbes {
    let tweetieDB: String
    let mount: String
    let sizeKiB: Int
    let verbose: Bool
    private(set) var runs = 0
    private(set) var failures: [String] = []

    init(tweetieDB: String, mount: String, sizeKiB: Int, verbose: Bool) {
        self.tweetieDB = tweetieDB
        self.mount = mount
        self.sizeKiB = sizeKiB
        self.verbose = verbose
    }

    /// Mounts a fresh, empty tmpfs (dropping the previous one).
    func remount() -> Bool {
        _ = umount2(mount, Int32(MNT_DETACH))
        return Glibc.mount("tmpfs", mount, "tmpfs", 0, "size=\(sizeKiB)k,mode=0755") == 0
    }

    /// Creating a database on a disk with `free` bytes left, then again once space is freed.
    mutating func creation(free: Int) {
        guard remount() else { return record("free \(free): cannot remount the tmpfs") }
        let database = mount + "/created"
        fill(leaving: free)
        let first = run(["sync", "--simulated", "--ticks", "2", "--db", database], probe: "create with \(free) bytes free")
        if let first, first.code != 0, !first.stderr.lowercased().contains("no space") {
            record("create with \(free) bytes free: exit \(first.code) without a no-space message: \(first.stderr)")
        }
        unlink(mount + "/filler")
        guard let second = run(["sync", "--simulated", "--ticks", "2", "--db", database], probe: "create after freeing (\(free))") else { return }
        if second.code != 0 {
            record("free \(free): after freeing the disk, sync still fails (\(second.code)): \(second.stderr)")
            return
        }
        if let verify = run(["verify", "--db", database], probe: "verify after freeing (\(free))"), verify.code != 0 {
            record("free \(free): verify of the completed database fails (\(verify.code)): \(verify.stderr)")
        }
    }

    /// Reading an intact database on a disk with `free` bytes left, with and without lock.mdb.
    mutating func intactReads(free: Int) {
        guard remount() else { return record("free \(free): cannot remount the tmpfs") }
        let database = mount + "/intact"
        guard let created = run(["sync", "--simulated", "--ticks", "2", "--db", database], probe: "create intact"), created.code == 0 else {
            return record("free \(free): cannot create the intact database on an empty tmpfs")
        }
        for withLock in [true, false] {
            if !withLock { unlink(database + "/lock.mdb") }
            fill(leaving: free)
            for arguments in [["stats"], ["verify"], ["tweets", "list", "--limit", "3"]] {
                let probe = "\(arguments.joined(separator: " ")) with \(free) bytes free, \(withLock ? "with" : "without") lock.mdb"
                guard let result = run(arguments + ["--db", database], probe: probe) else { continue }
                if result.stderr.contains("corrupt") {
                    record("\(probe): an intact database was called corrupt: \(result.stderr)")
                } else if result.code != 0, !result.stderr.lowercased().contains("no space") {
                    record("\(probe): exit \(result.code) without a no-space message: \(result.stderr)")
                }
            }
            unlink(mount + "/filler")
        }
    }

    /// Runs `tweetie-db arguments…`; records a death by signal (and returns `nil` then).
    private mutating func run(_ arguments: [String], probe: String) -> (code: Int32, stderr: String)? {
        runs += 1
        guard let child = try? ChildProcess(executable: tweetieDB, arguments: arguments) else {
            record("\(probe): cannot start tweetie-db")
            return nil
        }
        guard child.wait(atMost: 60) else {
            record("\(probe): did not finish within 60 s")
            return nil
        }
        let (code, signal) = child.wait()
        let stderr = child.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        if verbose { Out.error("full-disk: \(probe): \(code.map { "exit \($0)" } ?? "signal \(signal)") \(stderr)") }
        guard let code else {
            record("\(probe): tweetie-db died with signal \(signal)")
            return nil
        }
        return (code, stderr)
    }

    /// Fills the tmpfs with `filler` until `free` bytes (rounded to pages) are left.
    private func fill(leaving free: Int) {
        let path = mount + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 65_536)
        var size = chunk.count
        while size > 0 {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress!, size) }
            if written < 0 { size /= 2 }
            if written == 0 { break }
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return }
        let release = (free + 4095) / 4096 * 4096
        _ = ftruncate(fd, max(0, status.st_size - off_t(release)))
    }

    private mutating func record(_ failure: String) {
        failures.append(failure)
        if verbose { Out.error("full-disk: FAIL \(failure)") }
    }
}
