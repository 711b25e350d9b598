import ArgumentParser
import Foundation
import TweetieSync

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
        TweetieDatabase.reason(code, of: path)
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
