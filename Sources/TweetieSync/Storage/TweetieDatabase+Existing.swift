import Foundation
#if canImport(Glibc)
import Glibc
#endif

// How every command that only reads (tweetie-db's readers, tweetie-serve, the benchmarks) opens the
// database: one function, so that they refuse the same things with the same sentences.

extension TweetieDatabase {
    /// A database directory that cannot be an existing database: missing, not a directory, out of
    /// this user's reach, or without `data.mdb`. Its description is the sentence to print.
    package struct NotAnExistingDatabase: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Opens the database at `path`, which must exist and be complete: nothing is created (an empty
    /// or incomplete `data.mdb` is refused by the store). It is opened for writing when this user
    /// can write it (so a changed index definition is rebuilt as usual); when permissions, a
    /// read-only mount or an immutable file forbid that, it is opened read-only, and
    /// `readOnlyBecause` says why (with the lock file's absence, when it is read without one).
    ///
    /// Throws ``NotAnExistingDatabase`` for a path that holds no database, and the store's
    /// `StoreError` for a database that does not open.
    package static func openExisting(at path: String, configuration: StoreConfiguration = StoreConfiguration(),
                                     additionalCollections: [any Record.Type] = []) throws -> (store: Store, readOnlyBecause: String?) {
        try checkReachable(path)
        var configuration = configuration
        configuration.createDatabase = false
        let writableFailure: StoreError
        do {
            return (try open(at: path, configuration: configuration, additionalCollections: additionalCollections), nil)
        } catch let error as StoreError {
            guard case .system(let code) = error.code, [EACCES, EPERM, EROFS].contains(code) else { throw error }
            writableFailure = error
        }
        configuration.readOnly = true
        let store = try open(at: path, configuration: configuration, additionalCollections: additionalCollections)
        let lock = store.withoutLockFile.map { "; reading without the lock file: \($0)" } ?? ""
        return (store, writableFailure.message + lock)
    }

    /// Why `errno` `code` stopped an access to `path`: for a permission problem, who owns it, its
    /// mode and who this process is.
    package static func reason(_ code: Int32, of path: String) -> String {
        var text = "\(String(cString: strerror(code))) (errno \(code))"
        if code == EACCES || code == EPERM {
            var status = stat()
            let owner = stat(path, &status) == 0 ? "\(path) is owned by uid \(status.st_uid) with mode 0\(String(status.st_mode & 0o7777, radix: 8)), and " : ""
            text = "permission denied: \(owner)this process runs as uid \(geteuid())"
        }
        return text
    }

    private static func checkReachable(_ path: String) throws(NotAnExistingDatabase) {
        var status = stat()
        if stat(path, &status) != 0 {
            let code = errno
            if code == ENOENT {
                throw NotAnExistingDatabase(description: "no database at \(path): run 'tweetie-db sync' or 'tweetie-db demo' first, or pass --db")
            }
            throw NotAnExistingDatabase(description: "cannot reach \(path): \(reason(code, of: Paths.parent(of: path)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw NotAnExistingDatabase(description: "\(path) is not a TweetieDB database (it is a file, not a database directory)")
        }
        if stat(path + "/data.mdb", &status) != 0 {
            let code = errno
            if code == ENOENT {
                throw NotAnExistingDatabase(description: "\(path) is not a TweetieDB database (it has no data.mdb)")
            }
            throw NotAnExistingDatabase(description: "cannot read the database in \(path): \(reason(code, of: path))")
        }
    }
}
