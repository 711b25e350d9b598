internal import CLMDBBench
import Foundation

/// A bare LMDB environment with one unnamed database: the floor the object store is measured
/// against (no indexes, no change log, no encoding in the timed part).
///
/// ```swift
/// let raw = try RawLMDBStore(path: "/tmp/raw", mapSize: 4 << 30)
/// try raw.putAll(keys: keys, values: values)
/// raw.close()
/// ```
public final class RawLMDBStore {
    private var env: OpaquePointer?
    private var dbi: MDB_dbi = 0
    /// The directory of the environment.
    ///
    /// ```swift
    /// print(raw.path)
    /// ```
    public let path: String

    /// Opens (creating) the environment in `path`; `sync: false` opens it with `MDB_NOSYNC`.
    ///
    /// ```swift
    /// let raw = try RawLMDBStore(path: dir, mapSize: 1 << 32)
    /// ```
    public init(path: String, mapSize: Int, sync: Bool = true) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.check(mdb_env_create(&env), "mdb_env_create", path)
        try Self.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize", path)
        let flags = UInt32(sync ? 0 : MDB_NOSYNC)
        try Self.check(mdb_env_open(env, path, flags, 0o600), "mdb_env_open", path)
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin", path)
        try Self.check(mdb_dbi_open(txn, nil, 0, &dbi), "mdb_dbi_open", path)
        try Self.check(mdb_txn_commit(txn), "mdb_txn_commit", path)
    }

    deinit { close() }

    /// Closes the environment (idempotent).
    ///
    /// ```swift
    /// raw.close()
    /// ```
    public func close() {
        if let env { mdb_env_close(env) }
        env = nil
    }

    /// Puts every `(keys[i], values[i])` pair with `mdb_put` in one write transaction.
    ///
    /// ```swift
    /// try raw.putAll(keys: [[0, 0, 0, 0, 0, 0, 0, 1]], values: [[1, 2, 3]])
    /// ```
    public func putAll(keys: [[UInt8]], values: [[UInt8]]) throws {
        precondition(keys.count == values.count, "putAll: \(keys.count) keys for \(values.count) values")
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin", path)
        do {
            for i in keys.indices {
                try keys[i].withUnsafeBytes { k in
                    try values[i].withUnsafeBytes { v in
                        var key = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
                        var value = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                        try Self.check(mdb_put(txn, dbi, &key, &value, 0), "mdb_put", path)
                    }
                }
            }
            try Self.check(mdb_txn_commit(txn), "mdb_txn_commit", path)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
    }

    /// The number of entries in the database.
    ///
    /// ```swift
    /// print(try raw.count())
    /// ```
    public func count() throws -> Int {
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin", path)
        defer { mdb_txn_abort(txn) }
        var stat = MDB_stat()
        try Self.check(mdb_stat(txn, dbi, &stat), "mdb_stat", path)
        return Int(stat.ms_entries)
    }

    private static func check(_ rc: Int32, _ operation: String, _ path: String) throws {
        guard rc != 0 else { return }
        throw RawLMDBError(code: rc, operation: operation, path: path, message: String(cString: mdb_strerror(rc)))
    }
}
