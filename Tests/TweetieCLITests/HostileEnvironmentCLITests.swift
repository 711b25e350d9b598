import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

/// Output into devices, FIFOs, symlinks and full disks; interrupted exports and
/// backups; permissions under `umask 000`; hostile paths and import input.
@Suite("tweetie-db in a hostile environment")
struct HostileEnvironmentCLITests {
    static var isRoot: Bool { getuid() == 0 }

    /// Runs `tweetie-db arguments…` with standard output going to `stdoutPath` (a file or device).
    static func run(_ arguments: [String], stdoutPath: String) throws -> (status: Int32, stderr: String) {
        let process = SpawnedProcess()
        process.executableURL = CLI.executable
        process.arguments = arguments
        guard let out = FileHandle(forWritingAtPath: stdoutPath) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? out.close() }
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// Runs a shell command line; `$0` is the tweetie-db executable.
    static func shell(_ script: String) throws -> CLI.Result {
        try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, CLI.executable.path])
    }

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// A database with tweets, users and list memberships, from the simulated source.
    static func synced() throws -> TemporaryDirectory {
        let db = TemporaryDirectory.database()
        let result = try CLI.run(["sync", "--simulated", "--db", db.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    /// The files in `directory` whose names contain `.partial-`.
    static func partials(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".partial-") }
    }

    // MARK: Item 1: export -o

    @Test func exportIntoADeviceAFIFOAndThroughASymlink() throws {
        let db = try StoreCommandsTests.seeded(200)
        defer { db.remove() }
        let expected = try CLI.run(["export", "--db", db.path]).stdout
        let dir = db.path + "-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A device that is always full (a private node like /dev/full, so that a build without the
        // fix replaces only the test's copy): a clear error, and it stays a character device.
        if Self.isRoot, try Self.shell("mknod -m 666 '\(dir)/full' c 1 7").status == 0 {
            let full = try CLI.run(["export", "--db", db.path, "-o", dir + "/full"])
            #expect(full.status != 0 && full.stderr.contains("No space left on device") && full.stderr.contains(dir + "/full"), "\(full.stderr)")
            #expect(Self.fileType(dir + "/full") == S_IFCHR)
            #expect(Self.partials(in: dir).isEmpty)
            try FileManager.default.removeItem(atPath: dir + "/full")
        } else {
            print("skipped: making a device node (mknod) needs root")
        }
        // A FIFO: its reader gets the whole export, and it stays a FIFO.
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        final class Received: @unchecked Sendable { var data = Data() }
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.data = handle.readDataToEndOfFile() }
            done.signal()
        }
        reader.start()
        let toFIFO = try CLI.run(["export", "--db", db.path, "-o", fifo])
        #expect(toFIFO.status == 0, "\(toFIFO.stderr)")
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(received.data == expected)
        #expect(Self.fileType(fifo) == S_IFIFO)
        // A symlink stays a symlink; its target gets the export.
        let target = dir + "/target.ndjson", link = dir + "/link.ndjson"
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.ndjson")
        let toLink = try CLI.run(["export", "--db", db.path, "-o", link])
        #expect(toLink.status == 0, "\(toLink.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == expected)
        // A dangling symlink and a directory are refused with what is wrong.
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: "nowhere")
        let dangling = try CLI.run(["export", "--db", db.path, "-o", dir + "/dangling"])
        #expect(dangling.status != 0 && dangling.stderr.contains("symbolic link to nowhere"), "\(dangling.stderr)")
        let directory = try CLI.run(["export", "--db", db.path, "-o", dir])
        #expect(directory.status != 0 && directory.stderr.contains("is a directory"), "\(directory.stderr)")
        #expect(Self.fileType(dir + "/nowhere") == nil && Self.partials(in: dir).isEmpty)
    }

    // MARK: Item 15: signals during export -o; SIGQUIT

    /// Starts `tweetie-db arguments…`, waits until `path` exists (the command is mid-way), sends
    /// `signal`, and returns the exit (status, reason, stderr); nil when the command finished
    /// before `path` was seen.
    static func interrupt(_ arguments: [String], whenExists path: @escaping () -> String?, with signal: Int32) throws -> (Int32, SpawnedProcess.TerminationReason, String)? {
        let process = SpawnedProcess()
        process.executableURL = CLI.executable
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = false
        while process.isRunning {
            if path() != nil { seen = true; kill(process.processIdentifier, signal); break }
            usleep(200)
        }
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return seen ? (process.terminationStatus, process.terminationReason, String(decoding: stderr, as: UTF8.self)) : nil
    }

    @Test func interruptedExportLeavesNoPartialFile() throws {
        let db = try StoreCommandsTests.seeded(20_000)
        defer { db.remove() }
        let dir = db.path + "-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for signal in [SIGINT, SIGTERM, SIGQUIT] {
            var caught = false
            for _ in 0..<10 where !caught {
                guard let (status, reason, stderr) = try Self.interrupt(["export", "--db", db.path, "-o", dir + "/export.ndjson"],
                                                                         whenExists: { Self.partials(in: dir).first }, with: signal) else {
                    try? FileManager.default.removeItem(atPath: dir + "/export.ndjson")
                    continue
                }
                caught = true
                #expect(Self.partials(in: dir).isEmpty, "signal \(signal) left \(Self.partials(in: dir))")
                #expect(!FileManager.default.fileExists(atPath: dir + "/export.ndjson"))
                if signal == SIGQUIT {
                    #expect(reason == .exit && status == 128 + SIGQUIT, "SIGQUIT: \(reason) \(status)")
                    #expect(!stderr.contains("Backtrace") && !stderr.contains("crashed"), "\(stderr)")
                } else {
                    #expect(reason == .uncaughtSignal && status == signal)
                }
            }
            #expect(caught, "the export of signal \(signal) always finished before it could be interrupted")
        }
    }

    @Test func sigquitStopsAFollowingFeedWithoutABacktrace() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        let process = SpawnedProcess()
        process.executableURL = CLI.executable
        process.arguments = ["feed", "list", "--follow", "--db", db.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let started = Date()
        var snapshotSeen = false
        while !snapshotSeen, Date().timeIntervalSince(started) < 30 {
            var pfd = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            snapshotSeen = poll(&pfd, 1, 100) > 0 && !out.fileHandleForReading.availableData.isEmpty
        }
        #expect(snapshotSeen)
        kill(process.processIdentifier, SIGQUIT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        let stopped = !process.isRunning
        if !stopped { process.terminate() }
        process.waitUntilExit()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        #expect(stopped, "the feed kept running after SIGQUIT")
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGQUIT)
        let text = String(decoding: stderr, as: UTF8.self)
        #expect(!text.contains("Backtrace") && !text.contains("crashed"), "\(text)")
    }

    // MARK: Item 2 and 6: backups

    @Test func backupToAFullDiskLeavesNothing() throws {
        guard Self.isRoot else { print("skipped: mounting a small tmpfs needs root"); return }
        let db = try StoreCommandsTests.seeded(2_000)
        defer { db.remove() }
        guard let disk = try SmallDisk(kibibytes: 64) else { return }
        defer { disk.remove() }
        let mount = disk.path
        // A new directory on the full disk, and the (empty) mount point itself.
        for destination in [mount + "/backup", mount] {
            let result = try CLI.run(["backup", destination, "--db", db.path])
            #expect(result.status != 0, "\(destination)")
            #expect(result.stderr.contains("No space left on device") && result.stderr.contains("no data.mdb was left"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: destination + "/data.mdb"))
            #expect(Self.partials(in: destination).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: mount + "/backup"), "the backup's new directory was left behind")
    }

    @Test func interruptedBackupLeavesNoTemporaryFile() throws {
        let db = try StoreCommandsTests.seeded(20_000)
        defer { db.remove() }
        for signal in [SIGINT, SIGTERM] {
            let destination = db.path + "-backup-\(signal)"
            defer { try? FileManager.default.removeItem(atPath: destination) }
            var caught = false
            for _ in 0..<10 where !caught {
                try? FileManager.default.removeItem(atPath: destination)
                guard try Self.interrupt(["backup", destination, "--db", db.path],
                                         whenExists: { Self.partials(in: destination).first }, with: signal) != nil else { continue }
                caught = true
                #expect(!FileManager.default.fileExists(atPath: destination), "signal \(signal) left \(Self.partials(in: destination))")
            }
            #expect(caught, "the backup always finished before signal \(signal) could interrupt it")
        }
    }

    @Test func backupsArePrivateWhateverTheUmask() throws {
        guard let user = try TestUser.prepare() else { return }
        let db = try StoreCommandsTests.seeded(50)
        defer { db.remove() }
        let base = db.path + "-umask"
        defer { try? FileManager.default.removeItem(atPath: base) }
        // A new destination, and one made world-writable beforehand; both under umask 000.
        let result = try Self.shell("umask 000 && mkdir -p '\(base)/open' && \"$0\" backup '\(base)/new' --db '\(db.path)' && \"$0\" backup '\(base)/open' --db '\(db.path)'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(chmod(base, 0o755) == 0)
        for destination in ["new", "open"] {
            let file = "\(base)/\(destination)/data.mdb"
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(destination): \(String(mode ?? 0, radix: 8))")
            let read = try Self.shell("\(user.setpriv.joined(separator: " ")) cat '\(file)' > /dev/null")
            #expect(read.status != 0, "tweetie-test read \(file)")
        }
        let directoryMode = try FileManager.default.attributesOfItem(atPath: "\(base)/new")[.posixPermissions] as? Int
        #expect(directoryMode == 0o700, "\(String(directoryMode ?? 0, radix: 8))")
    }

    // MARK: Item 5: standard output

    @Test func everyCommandFailsWhenStandardOutputCannotBeWritten() throws {
        let db = try Self.synced()
        defer { db.remove() }
        let commands: [[String]] = [
            ["stats"], ["stats", "--format", "json"], ["tweets", "list"], ["tweets", "list", "--format", "table"],
            ["tweets", "show", "\(try firstTweetID(db))"], ["users"], ["users", "--format", "json"],
            ["feed", "list", "--once"], ["feed", "people", "--once"], ["verify"], ["export"],
            ["sync", "--simulated", "--format", "json"], ["bench", "reads", "--rounds", "1"],
        ]
        for command in commands {
            let result = try Self.run(command + ["--db", db.path], stdoutPath: "/dev/full")
            #expect(result.status != 0, "\(command) exited 0 into /dev/full")
            #expect(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
        }
        let help = try Self.run(["stats", "--help"], stdoutPath: "/dev/full")
        #expect(help.status != 0 && help.stderr.contains("cannot write to standard output"), "\(help.stderr)")
    }

    func firstTweetID(_ db: TemporaryDirectory) throws -> Int64 {
        let line = try CLI.run(["tweets", "list", "--limit", "1", "--format", "ndjson", "--db", db.path]).stdout
        return try RecordJSON.decoder().decode(Tweet.self, from: line).id
    }

    // MARK: Item 15: paths

    @Test func hostilePathsGetClearErrorsAndCreateNothing() throws {
        let base = TemporaryDirectory.database()
        try FileManager.default.createDirectory(atPath: base.path, withIntermediateDirectories: true)
        defer { base.remove() }
        // Invalid UTF-8: refused, not silently a directory named with U+FFFD.
        let utf8 = try Self.shell("cd '\(base.path)' && \"$0\" sync --simulated --db \"$(printf 'bad\\377')\"")
        #expect(utf8.status != 0 && utf8.stderr.contains("not valid UTF-8"), "\(utf8.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
        let environment = try Self.shell("cd '\(base.path)' && TWEETIE_DB=\"$(printf 'env\\376')\" \"$0\" sync --simulated")
        #expect(environment.status != 0 && environment.stderr.contains("$TWEETIE_DB") && environment.stderr.contains("not valid UTF-8"), "\(environment.stderr)")
        // Only the variable the default comes from counts: a bad $HOME with $TWEETIE_DB set is fine.
        let home = try Self.shell("cd '\(base.path)' && HOME=\"$(printf 'home\\376')\" TWEETIE_DB='\(base.path)/db' \"$0\" stats")
        #expect(home.stderr.contains("no database at \(base.path)/db"), "\(home.stderr)")
        // Over PATH_MAX, and a component over NAME_MAX: "path too long", no directories.
        let long = base.path + "/long/" + Array(repeating: String(repeating: "d", count: 200), count: 25).joined(separator: "/")
        let tooLong = try CLI.run(["sync", "--simulated", "--db", long])
        #expect(tooLong.status != 0 && tooLong.stderr.contains("path too long"), "\(tooLong.stderr)")
        let longName = try CLI.run(["sync", "--simulated", "--db", base.path + "/name/" + String(repeating: "n", count: 300)])
        #expect(longName.status != 0 && longName.stderr.contains("path too long"), "\(longName.stderr)")
        let longBackup = try CLI.run(["backup", long, "--db", base.path])
        #expect(longBackup.status != 0 && longBackup.stderr.contains("path too long"), "\(longBackup.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).isEmpty)
        // A dangling symlink as --db.
        try FileManager.default.createSymbolicLink(atPath: base.path + "/link", withDestinationPath: "missing")
        for command in [["sync", "--simulated"], ["stats"]] {
            let dangling = try CLI.run(command + ["--db", base.path + "/link"])
            #expect(dangling.status != 0 && dangling.stderr.contains("is a symbolic link to missing"), "\(command): \(dangling.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["link"])
    }
}

extension HostileEnvironmentCLITests {
    /// A process started with an empty argv runs as with no arguments (the root help, status 0),
    /// never trapping. Linux 5.18 and later hand such a process one empty argument.
    @Test func anEmptyArgvRunsAsNoArguments() throws {
        let none = try CLI.run([])
        let empty = try ChildProcess.run(CLI.executable, nil, environment: ["TWEETIE_DB": nil])
        #expect(empty.signal == nil && empty.status == none.status && empty.output == none.output, "\(empty.signal.map { "signal \($0)" } ?? "status \(empty.status)"): \(empty.stderr)")
        #expect(none.status == 0 && none.output.contains("SUBCOMMANDS:"), "\(none.stderr)")
    }

    /// Where `/proc` is not mounted, Swift's runtime cannot find argv (it reads
    /// `/proc/self/maps`): `CommandLine.argc` is 0, whatever the launcher passed.
    @Test(.enabled(if: isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare(1) to hide /proc in a mount namespace"))
    func withoutProcTheArgumentCountIsZeroAndTheCommandRunsAsWithNone() throws {
        let hidden = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                          ["--mount", "--propagation", "private", "sh", "-c", #"mount -t tmpfs none /proc && exec "$0""#, CLI.executable.path],
                                          environment: ["TWEETIE_DB": nil])
        #expect(hidden.signal == nil && hidden.status == 0 && hidden.output.contains("SUBCOMMANDS:"),
                "\(hidden.signal.map { "signal \($0)" } ?? "status \(hidden.status)"): \(hidden.stderr)")
    }
}

extension HostileEnvironmentCLITests {
    // MARK: Item 15: import messages and duplicate keys

    @Test(arguments: [
        ("huge id", #""id":99999999999999999999,"name":"n""#, "field 'id': 99999999999999999999 is outside the 64-bit integer range"),
        ("infinite id", #""id":1e400,"name":"n""#, "field 'id': 1e400 is too large for any number type"),
        ("fractional id", #""id":1.5,"name":"n""#, "field 'id': 1.5 is not a whole number"),
        ("duplicate field", #""id":7,"name":"n","name":"m""#, "the field 'name' appears more than once"),
        ("escaped duplicate", #""id":7,"name":"n","n\u0061me":"m""#, "the field 'name' appears more than once"),
    ])
    func importNamesTheFieldAndRefusesDuplicateKeys(name: String, fields: String, expected: String) throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        let before = try CLI.run(["export", "--db", db.path]).stdout
        let header = #"{"collections":[{"count":1,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#
        let line = #"{"collection":"users","record":{"# + fields + #","username":"u","about":"","url":"","imageURL":""}}"#
        let result = try CLI.run(["import", "-", "--db", db.path], stdin: Data((header + "\n" + line + "\n").utf8))
        #expect(result.status != 0 && result.stderr.contains("line 2") && result.stderr.contains(expected), "\(name): \(result.stderr)")
        #expect(!result.stderr.contains("not valid JSON"), "\(name)")
        #expect(try CLI.run(["export", "--db", db.path]).stdout == before)
    }

    /// A byte JSON does not allow in a string (a raw control character, a byte that is not
    /// UTF-8) is named with its field and its place in the line, whatever field comes before it
    /// and whichever layout the line has: not blamed on a number (it was "field 'id': 5 does not
    /// fit the field's type").
    @Test(arguments: [
        ("raw control byte", [UInt8(0x05)], "field 'text': byte 0x05 at byte %d of the line is a raw control character, which a JSON string must escape (as \\u0005)"),
        ("raw escape byte", [0x1B], "field 'text': byte 0x1B at byte %d of the line is a raw control character"),
        ("byte that is not UTF-8", [0xFF], "field 'text': byte 0xFF at byte %d of the line begins a sequence that is not valid UTF-8"),
    ])
    func importNamesTheFieldAndByteThatJSONDoesNotAllow(name: String, bad: [UInt8], expected: String) throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        let before = try CLI.run(["export", "--db", db.path]).stdout
        let tweet = Tweet(id: 5, text: "ab@cd", name: "N", username: "u", authorId: 7, created: Date(timeIntervalSince1970: 0), imageURL: "i",
                          retweetCount: 0, favoriteCount: 0)
        let export = try ControlCharactersCLITests.export(tweets: [tweet], users: [])
        let lines = export.split(separator: 0x0A)
        for layout in ["export", "reordered"] {
            var record = Array(lines[1])
            if layout == "reordered" {
                // The same line with its two members swapped: no longer the export's layout.
                let text = String(decoding: record, as: UTF8.self)
                let object = String(text.dropFirst(#"{"collection":"tweets","record":"#.count).dropLast())
                record = Array((#"{"record":"# + object + #","collection":"tweets"}"#).utf8)
            }
            let at = try #require(record.firstIndex(of: UInt8(ascii: "@")))
            record.replaceSubrange(at...at, with: bad)
            let input = Data(Array(lines[0]) + [0x0A] + record + [0x0A])
            let result = try CLI.run(["import", "-", "--db", db.path], stdin: input)
            let message = expected.replacingOccurrences(of: "%d", with: "\(at + 1)")
            #expect(result.status == 1 && result.stderr.contains("line 2") && result.stderr.contains(message), "\(name), \(layout): \(result.stderr)")
            #expect(!result.stderr.contains("'id'"), "\(name), \(layout)")
            #expect(try CLI.run(["export", "--db", db.path]).stdout == before)
        }
    }

    @Test func importRefusesDuplicateKeysInTheLineAndHeaderAndSaysEmptyPlainly() throws {
        let db = try StoreCommandsTests.seeded(10)
        defer { db.remove() }
        let header = #"{"collections":[{"count":1,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#
        let user = #"{"id":7,"name":"n","username":"u","about":"","url":"","imageURL":""}"#
        let twoCollections = try CLI.run(["import", "-", "--db", db.path], stdin: Data((header + "\n" + #"{"collection":"users","collection":"tweets","record":"# + user + "}\n").utf8))
        #expect(twoCollections.status != 0 && twoCollections.stderr.contains("the field 'collection' appears more than once"), "\(twoCollections.stderr)")
        let duplicateHeader = #"{"collections":[{"count":1,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1,"version":2}"#
        let badHeader = try CLI.run(["import", "-", "--db", db.path], stdin: Data((duplicateHeader + "\n" + #"{"collection":"users","record":"# + user + "}\n").utf8))
        #expect(badHeader.status != 0 && badHeader.stderr.contains("line 1: the header has the field 'version' more than once"), "\(badHeader.stderr)")
        let empty = try CLI.run(["import", "-", "--db", db.path], stdin: Data())
        #expect(empty.status != 0 && empty.stderr.contains("import failed: the input is empty"), "\(empty.stderr)")
        #expect(!empty.stderr.contains("failed at the"))
    }
}

extension HostileEnvironmentCLITests {
    /// A backup killed with SIGKILL leaves its temporary file; the next backup there removes it
    /// (its process is gone) and leaves a live process's alone.
    @Test func theNextBackupRemovesTemporaryFilesOfKilledBackups() throws {
        let db = try StoreCommandsTests.seeded(20)
        defer { db.remove() }
        let destination = db.path + "-again"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let gone = SpawnedProcess()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = "data.mdb.partial-\(gone.processIdentifier)", live = "data.mdb.partial-\(getpid())"
        for name in [stale, live] { try Data("partial".utf8).write(to: URL(fileURLWithPath: destination + "/" + name)) }
        let result = try CLI.run(["backup", destination, "--db", db.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.partials(in: destination) == [live])
        #expect(try CLI.run(["verify", "--db", destination]).status == 0)
    }
}
