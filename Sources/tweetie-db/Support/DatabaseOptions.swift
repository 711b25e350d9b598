import ArgumentParser
import Foundation
import TweetieSync

/// What a command does with its database, which its `--db` help says.
protocol DatabaseAccess {
    /// The sentence after the default location in `--db`'s help.
    static var discussion: String { get }
}

/// The command creates the database when it is missing (`sync`, `import`, `demo`, `bench`).
enum CreatesDatabase: DatabaseAccess {
    static var discussion: String { "It is created, with owner-only permissions, when missing." }
}

/// The command changes the database, which must exist (`tweets delete`).
enum ChangesDatabase: DatabaseAccess {
    static var discussion: String { "It must exist: this command never creates one." }
}

/// The command only reads the database (`stats`, `tweets list`, `export`, `verify`…).
enum ReadsDatabase: DatabaseAccess {
    static var discussion: String { "It must exist: this command only reads it, and opens it read-only (saying so on stderr) when it cannot write it." }
}

/// `--db` for a command that may create the database.
typealias DatabaseOptions = DatabaseLocation<CreatesDatabase>
/// `--db` for a command that only reads the database.
typealias ReadDatabaseOptions = DatabaseLocation<ReadsDatabase>
/// `--db` for a command that changes an existing database.
typealias ChangeDatabaseOptions = DatabaseLocation<ChangesDatabase>

/// The `--db` option every subcommand takes, and how it opens the database; `Access` words the help.
struct DatabaseLocation<Access: DatabaseAccess>: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database directory.",
        discussion: "Defaults to $TWEETIE_DB, else $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db). " + Access.discussion,
        valueName: "path"))
    var path: String?

    @Option(name: .customLong("max-readers"), help: ArgumentHelp(
        "The reader slots to create: concurrent read transactions of every process using the database.",
        discussion: "Default: 1024. It takes effect when no other process has the database open (the first one sizes lock.mdb for everyone) and never shrinks an existing lock file. Raise it when commands fail with MDB_READERS_FULL because many processes (feed followers, exports) read at once; each slot costs 64 bytes of lock.mdb.",
        valueName: "n"))
    var maxReaders: Int?

    var resolvedPath: String { path ?? TweetieDatabase.defaultPath() }

    /// The largest `--max-readers`: 64 MiB of lock file.
    static var maxReadersLimit: Int { 1 << 20 }

    /// Checks the path and `--max-readers`, and fails fast, before any thread starts, when
    /// `ulimit -v` leaves too little address space (see ``AddressSpace``).
    func validate() throws {
        if path == nil {
            // The variable the default comes from: the first of these that is set and not empty.
            let names: [String] = ["TWEETIE_DB", "XDG_DATA_HOME", "HOME"]
            if let name = names.first(where: { (name: String) in getenv(name).map { $0.pointee != 0 } ?? false }) {
                try PathCheck.validateEnvironmentIsUTF8(name)
            }
        }
        try PathCheck.validate(resolvedPath, role: "--db")
        if let maxReaders, !(1...Self.maxReadersLimit).contains(maxReaders) {
            throw ValidationError("--max-readers must be between 1 and \(Self.maxReadersLimit), got \(maxReaders).")
        }
        try AddressSpace.requireRoom(forDatabaseAt: resolvedPath)
    }

    /// The store configuration the options ask for.
    var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        if let maxReaders { configuration.maxReaders = maxReaders }
        return configuration
    }

    /// Opens the database for reading: it must exist and be a complete TweetieDB database, and
    /// nothing is created (an empty or incomplete `data.mdb` is refused).
    ///
    /// It is opened for writing when this user can write it (so a changed index definition is
    /// rebuilt as usual); when permissions, a read-only mount or an immutable file forbid that, it
    /// is opened read-only instead, and one line on stderr says so and why.
    func openExisting() throws -> Store {
        let path = resolvedPath
        try checkReachable(path)
        var configuration = self.configuration
        configuration.createDatabase = false
        let writableFailure: StoreError
        do {
            return try TweetieDatabase.open(at: path, configuration: configuration)
        } catch let error as StoreError {
            guard case .system(let code) = error.code, [EACCES, EPERM, EROFS].contains(code) else {
                throw CLIError(describing: error, path: path)
            }
            writableFailure = error
        }
        configuration.readOnly = true
        let store: Store
        do {
            store = try TweetieDatabase.open(at: path, configuration: configuration)
        } catch let error as StoreError {
            throw CLIError(describing: error, path: path)
        }
        let lock = store.withoutLockFile.map { "; reading without the lock file: \($0)" } ?? ""
        Out.error("note: opened \(path) read-only (\(writableFailure.message))\(lock)")
        return store
    }

    /// Opens the database for writing, creating it when missing (and completing a creation that
    /// was cut short, e.g. by a full disk).
    func openForWriting() throws -> Store {
        try open(path: resolvedPath)
    }

    private func open(path: String) throws -> Store {
        do {
            return try TweetieDatabase.open(at: path, configuration: configuration)
        } catch let error as StoreError {
            throw CLIError(describing: error, path: path)
        }
    }

    /// Refuses, with what, where and why, a database directory that is missing, not a directory,
    /// out of this user's reach, or without `data.mdb`.
    private func checkReachable(_ path: String) throws {
        var status = stat()
        if stat(path, &status) != 0 {
            let code = errno
            if code == ENOENT {
                throw CLIError("no database at \(path): run 'tweetie-db sync' or 'tweetie-db demo' first, or pass --db")
            }
            throw CLIError("cannot reach \(path): \(CLIError.reason(code, of: (path as NSString).deletingLastPathComponent))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError("\(path) is not a TweetieDB database (it is a file, not a database directory)")
        }
        if stat(path + "/data.mdb", &status) != 0 {
            let code = errno
            if code == ENOENT {
                throw CLIError("\(path) is not a TweetieDB database (it has no data.mdb)")
            }
            throw CLIError("cannot read the database in \(path): \(CLIError.reason(code, of: path))")
        }
    }
}

/// A failure reported as one sentence on stderr, with a non-zero exit status.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// Whether the failure is damage found in the database (a corrupt page, a record that does not
    /// decode): what `verify` reports with ``ExitStatus/problemsFound``.
    var isDamage = false

    init(_ message: String, isDamage: Bool = false) {
        description = message
        self.isDamage = isDamage
    }

    /// The codes of database errors that mean the database is damaged.
    static func isDamage(_ code: StoreError.Code) -> Bool {
        [.corrupted, .pageNotFound, .panic, .invalid, .decodingFailed].contains(code)
    }

    /// Why `errno` `code` stopped an access to `path`: for a permission problem, who owns it, its
    /// mode and who this process is.
    static func reason(_ code: Int32, of path: String) -> String {
        var text = "\(String(cString: strerror(code))) (errno \(code))"
        if code == EACCES || code == EPERM {
            var status = stat()
            let owner = stat(path, &status) == 0 ? "\(path) is owned by uid \(status.st_uid) with mode 0\(String(status.st_mode & 0o7777, radix: 8)), and " : ""
            text = "permission denied: \(owner)this process runs as uid \(geteuid())"
        }
        return text
    }

    /// Turns a database error into the sentence a user needs.
    init(describing error: StoreError, path: String) {
        isDamage = Self.isDamage(error.code)
        switch error.code {
        case .newerFormat:
            description = "\(path) was written by a newer version of TweetieDB: \(error.message)"
        case .notADatabase:
            description = "\(path) is not a TweetieDB database: \(error.message)"
        case .system(EACCES), .system(EPERM), .system(EROFS), .system(ENOSPC), .system(EMFILE), .system(ENFILE):
            description = "cannot open \(path): \(error.message)"
        case .system(EAGAIN), .system(EWOULDBLOCK), .system(EBUSY):
            description = "\(path) is locked by another process: \(error.message)"
        case .readersFull:
            // The library's advice names its API (StoreConfiguration.maxReaders); the CLI's is the option.
            let what = error.message.components(separatedBy: "; raise StoreConfiguration.maxReaders").first ?? error.message
            description = "\(path) has no free reader slot: \(what). Close some of the processes reading it, or stop them all and rerun with a larger --max-readers (for example --max-readers 4096): the first process to open the database sets the number for everyone"
        default:
            description = "\(error)"
        }
    }
}

/// Runs a command body, turning any error into a one-sentence `CLIError`.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw reportable(error)
    }
}

/// The async form of ``reportingErrors(_:)``.
func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw reportable(error)
    }
}

/// A jq filter that drops every number id that has a string twin (`id` beside `idStr`), on a
/// record line: what is left imports exactly, even from jq 1.6, which rounds large numbers.
private let droppingNumberTwins = #"if .record then .record |= (. as $o | with_entries(select($o[.key + "Str"] == null))) else . end"#

/// The error as the user should see it: argument-parser errors and exit codes pass through;
/// everything else becomes one sentence.
private func reportable(_ error: any Error) -> any Error {
    switch error {
    case is CLIError, is ValidationError, is ExitCode:
        return error
    case let error as TransferError:
        // "import failed at line 3: …", or "import failed: the input is empty…".
        var hint = ""
        if error.reason.hasPrefix("the header announces") {
            hint = ". If you filtered an export (jq, grep), recount its header: jq -cs '.[0] as $h | .[1:] as $r | ($h | .collections |= map(.name as $n | .count = ([$r[] | select(.collection == $n)] | length))), ($r[] | \(droppingNumberTwins))' FILE | tweetie-db import - ; to move one collection, use tweetie-db export --collection NAME"
        } else if error.reason.contains("disagree (a JSON reader") {
            hint = ". To keep the exact string ids: jq -c '\(droppingNumberTwins)' FILE | tweetie-db import -"
        }
        return CLIError("import failed\(error.line == nil ? ":" : " at") \(error); the database was not changed\(hint)")
    case let error as StoreError where error.code == .readersFull:
        return CLIError(describing: error, path: error.path ?? "the database")
    case let error as StoreError:
        return CLIError("\(error)", isDamage: CLIError.isDamage(error.code))
    default:
        return CLIError("\(error)")
    }
}
