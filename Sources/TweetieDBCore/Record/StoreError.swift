import Foundation

/// The one error type TweetieDB throws: what went wrong, in which operation, on which database.
///
/// LMDB's own failures keep LMDB's meaning, in the words of `lmdb.h`, plus the context LMDB does not
/// give: the operation (`mdb_put`, `open`, …), the named database and the environment's path.
///
/// ```swift
/// do {
///     try store.write { tx in try tx.add(member) }
/// } catch let error as StoreError where error.code == .constraintViolation {
///     print(error) // add on 'members#handle' in /tmp/db: unique index 'handle' already holds the value "ann" for …
/// }
/// ```
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    ///
    /// ```swift
    /// if error.code == .mapFull { /* grow or report */ }
    /// ```
    public enum Code: Sendable, Hashable {
        /// `MDB_KEYEXIST`: key/data pair already exists.
        case keyExists
        /// `MDB_NOTFOUND`: key/data pair not found (EOF).
        case notFound
        /// `MDB_PAGE_NOTFOUND`: requested page not found — usually indicates corruption.
        case pageNotFound
        /// `MDB_CORRUPTED`: located page was wrong type.
        case corrupted
        /// `MDB_PANIC`: update of meta page failed or environment had fatal error.
        case panic
        /// `MDB_VERSION_MISMATCH`: environment version mismatch.
        case versionMismatch
        /// `MDB_INVALID`: file is not a valid LMDB file.
        case invalid
        /// `MDB_MAP_FULL`: environment mapsize reached.
        case mapFull
        /// `MDB_DBS_FULL`: environment maxdbs reached.
        case databasesFull
        /// `MDB_READERS_FULL`: environment maxreaders reached.
        case readersFull
        /// `MDB_TLS_FULL`: too many TLS keys in use (Windows only).
        case tlsFull
        /// `MDB_TXN_FULL`: txn has too many dirty pages.
        case transactionFull
        /// `MDB_CURSOR_FULL`: cursor stack too deep — internal error.
        case cursorFull
        /// `MDB_PAGE_FULL`: page has not enough space — internal error.
        case pageFull
        /// `MDB_MAP_RESIZED`: database contents grew beyond environment mapsize.
        case mapResized
        /// `MDB_INCOMPATIBLE`: operation and DB incompatible, or DB type changed.
        case incompatible
        /// `MDB_BAD_RSLOT`: invalid reuse of reader locktable slot.
        case badReaderSlot
        /// `MDB_BAD_TXN`: transaction must abort, has a child, or is invalid.
        case badTransaction
        /// `MDB_BAD_VALSIZE`: unsupported size of key/DB name/data, or wrong DUPFIXED size.
        case badValueSize
        /// `MDB_BAD_DBI`: the specified DBI was changed unexpectedly.
        case badDatabaseHandle
        /// An operating-system error (`errno`), such as `ENOENT`, `EACCES` or `ENOSPC`.
        case system(Int32)
        /// Another LMDB status code this version does not name.
        case other(Int32)

        /// The environment at this path is already open in this process with another configuration.
        case alreadyOpen
        /// The environment was closed before this operation.
        case environmentClosed
        /// A transaction was used after its closure returned.
        case transactionEnded
        /// A write was started on a thread that is already inside a write transaction.
        case nestedWrite
        /// An argument is invalid: the message says which and why.
        case invalidArgument
        /// The database on disk was written by a newer version of TweetieDB.
        case newerFormat
        /// The directory holds something that is not a TweetieDB database.
        case notADatabase
        /// A record or index violates a constraint (duplicate primary key, unique index).
        case constraintViolation
        /// Stored bytes could not be decoded into a record.
        case decodingFailed
        /// A record could not be encoded.
        case encodingFailed
        /// A schema migration failed.
        case migrationFailed
    }

    /// What kind of failure this is.
    ///
    /// ```swift
    /// if error.code == .keyExists { … }
    /// ```
    public var code: Code
    /// The operation that failed, such as `mdb_put` or `open`.
    ///
    /// ```swift
    /// print(error.operation) // "mdb_put"
    /// ```
    public var operation: String
    /// The named database (LMDB DBI) or collection involved, if any.
    ///
    /// ```swift
    /// print(error.database ?? "-") // "tweets"
    /// ```
    public var database: String?
    /// The environment's directory, if known.
    ///
    /// ```swift
    /// print(error.path ?? "-")
    /// ```
    public var path: String?
    /// A sentence explaining the failure.
    ///
    /// ```swift
    /// print(error.message)
    /// ```
    public var message: String

    /// Creates an error.
    ///
    /// ```swift
    /// throw StoreError(.invalidArgument, operation: "open", message: "the map size must be positive")
    /// ```
    public init(_ code: Code, operation: String, database: String? = nil, path: String? = nil, message: String) {
        self.code = code
        self.operation = operation
        self.database = database
        self.path = path
        self.message = message
    }

    /// One sentence: operation, database, path, and the reason.
    ///
    /// ```swift
    /// print(error) // "mdb_put on database 'tweets' in /tmp/db: MDB_KEYEXIST: Key/data pair already exists"
    /// ```
    public var description: String {
        var where_ = operation
        if let database { where_ += " on '\(database)'" }
        if let path { where_ += " in \(path)" }
        return "\(where_): \(message)"
    }

    func with(database: String? = nil, path: String? = nil) -> StoreError {
        var copy = self
        if let database, copy.database == nil { copy.database = database }
        if let path, copy.path == nil { copy.path = path }
        return copy
    }
}
