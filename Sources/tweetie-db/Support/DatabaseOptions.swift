import ArgumentParser
import Foundation
import TweetieSync

/// The `--db` option every subcommand takes, and how it opens the database.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database directory.",
        discussion: "Defaults to $TWEETIE_DB, else $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db). It is created, with owner-only permissions, on the first write.",
        valueName: "path"))
    var path: String?

    var resolvedPath: String { path ?? TweetieDatabase.defaultPath() }

    func validate() throws {
        if path == nil {
            // The variable the default comes from: the first of these that is set and not empty.
            let names: [String] = ["TWEETIE_DB", "XDG_DATA_HOME", "HOME"]
            if let name = names.first(where: { (name: String) in getenv(name).map { $0.pointee != 0 } ?? false }) {
                try PathCheck.validateEnvironmentIsUTF8(name)
            }
        }
        try PathCheck.validate(resolvedPath, role: "--db")
    }

    /// Opens the database for reading: it must exist and be a TweetieDB database.
    func openExisting() throws -> Store {
        let path = resolvedPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no database at \(path): run 'tweetie-db sync' or 'tweetie-db demo' first, or pass --db")
        }
        guard isDirectory.boolValue, FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw CLIError("\(path) is not a TweetieDB database (it has no data.mdb)")
        }
        return try open(path: path)
    }

    /// Opens the database for writing, creating it when missing.
    func openForWriting() throws -> Store {
        try open(path: resolvedPath)
    }

    private func open(path: String) throws -> Store {
        do {
            return try TweetieDatabase.open(at: path)
        } catch let error as DatabaseError {
            throw CLIError(describing: error, path: path)
        }
    }
}

/// A failure reported as one sentence on stderr, with a non-zero exit status.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) { description = message }

    /// Turns a database error into the sentence a user needs.
    init(describing error: DatabaseError, path: String) {
        switch error.code {
        case .newerFormat:
            description = "\(path) was written by a newer version of TweetieDB: \(error.message)"
        case .notADatabase:
            description = "\(path) is not a TweetieDB database: \(error.message)"
        case .system(EACCES), .system(EPERM), .system(EROFS):
            description = "cannot open \(path) for writing (permission denied or read-only file system): \(error.message)"
        case .system(EAGAIN), .system(EWOULDBLOCK), .system(EBUSY):
            description = "\(path) is locked by another process: \(error.message)"
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

/// The error as the user should see it: argument-parser errors and exit codes pass through;
/// everything else becomes one sentence.
private func reportable(_ error: any Error) -> any Error {
    switch error {
    case is CLIError, is ValidationError, is ExitCode:
        return error
    case let error as TransferError:
        // "import failed at line 3: …", or "import failed: the input is empty…".
        return CLIError("import failed\(error.line == nil ? ":" : " at") \(error); the database was not changed")
    default:
        return CLIError("\(error)")
    }
}
