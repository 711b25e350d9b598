import ArgumentParser
import Foundation
import TweetieSync

// DatabaseLocation (`--db`, as the DatabaseOptions typealiases), with DatabaseAccess and its three
// markers: they only choose the sentence of `--db`'s help, and read best beside it.

/// What a command does with its database, which its `--db` help says.
protocol DatabaseAccess {
    /// The sentence after the default location in `--db`'s help.
    static var discussion: String { get }
}

/// The command creates the database when it is missing (`sync`, `import`, `demo`).
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

    /// Opens the database for reading as every reading command does
    /// (`TweetieDatabase.openExisting`): it must exist and be a complete TweetieDB database, nothing
    /// is created, and when it cannot be written it is opened read-only, one line on stderr saying so
    /// and why.
    func openExisting() throws -> Store {
        let path = resolvedPath
        do {
            let (store, readOnlyBecause) = try TweetieDatabase.openExisting(at: path, configuration: configuration)
            if let readOnlyBecause { Out.error("note: opened \(path) read-only (\(readOnlyBecause))") }
            return store
        } catch let error as TweetieDatabase.NotAnExistingDatabase {
            throw CLIError(error.description)
        } catch let error as StoreError {
            throw CLIError(describing: error, path: path)
        }
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
}
