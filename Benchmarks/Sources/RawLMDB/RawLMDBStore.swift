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
    private var indexDbis: [MDB_dbi] = []
    /// The directory of the environment.
    ///
    /// ```swift
    /// print(raw.path)
    /// ```
    public let path: String

    /// Opens (creating) the environment in `path`; `sync: false` opens it with `MDB_NOSYNC`,
    /// `metaSync: false` with `MDB_NOMETASYNC`.
    /// `indexes` named databases (`index0`, `index1`, …) are created beside the unnamed one
    /// for ``putAll(keys:values:indexEntries:)``.
    ///
    /// ```swift
    /// let raw = try RawLMDBStore(path: dir, mapSize: 1 << 32)
    /// ```
    public init(path: String, mapSize: Int, sync: Bool = true, metaSync: Bool = true, indexes: Int = 0) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.check(mdb_env_create(&env), "mdb_env_create", path)
        try Self.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize", path)
        try Self.check(mdb_env_set_maxdbs(env, MDB_dbi(indexes)), "mdb_env_set_maxdbs", path)
        let flags = UInt32(sync ? 0 : MDB_NOSYNC) | UInt32(metaSync ? 0 : MDB_NOMETASYNC)
        try Self.check(mdb_env_open(env, path, flags, 0o600), "mdb_env_open", path)
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin", path)
        try Self.check(mdb_dbi_open(txn, nil, 0, &dbi), "mdb_dbi_open", path)
        for position in 0..<indexes {
            var index: MDB_dbi = 0
            try Self.check(mdb_dbi_open(txn, "index\(position)", UInt32(MDB_CREATE), &index), "mdb_dbi_open", path)
            indexDbis.append(index)
        }
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

    /// Puts each record as the object store does, without anything but LMDB: `keys[i]` →
    /// `values[i]` with `MDB_NOOVERWRITE`, then, in each index database `j`,
    /// `indexEntries[j][i]` → `keys[i]`. Three `mdb_put` per record for two indexes.
    ///
    /// ```swift
    /// let raw = try RawLMDBStore(path: dir, mapSize: 1 << 32, indexes: 1)
    /// try raw.putAll(keys: [[0, 0, 0, 0, 0, 0, 0, 1]], values: [[1, 2, 3]], indexEntries: [[[9, 0, 0, 0, 0, 0, 0, 0, 1]]])
    /// ```
    public func putAll(keys: [[UInt8]], values: [[UInt8]], indexEntries: [[[UInt8]]]) throws {
        precondition(keys.count == values.count, "putAll: \(keys.count) keys for \(values.count) values")
        precondition(indexEntries.count == indexDbis.count && indexEntries.allSatisfy { $0.count == keys.count },
                     "putAll: index entries do not match the \(indexDbis.count) index database(s) and \(keys.count) keys")
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin", path)
        do {
            for i in keys.indices {
                try put(txn, dbi, keys[i], values[i], flags: UInt32(MDB_NOOVERWRITE))
                for (position, index) in indexDbis.enumerated() {
                    try put(txn, index, indexEntries[position][i], keys[i], flags: 0)
                }
            }
            try Self.check(mdb_txn_commit(txn), "mdb_txn_commit", path)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
    }

    /// Puts each `(database, key, value)` in one write transaction, and commits it: `database`
    /// 0 is the unnamed database, `j + 1` the index database `j`.
    ///
    /// ```swift
    /// try raw.commit([(0, key, record), (1, createdEntry, key)])
    /// ```
    public func commit(_ puts: [(database: Int, key: [UInt8], value: [UInt8])]) throws {
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin", path)
        do {
            for put in puts {
                try self.put(txn, put.database == 0 ? dbi : indexDbis[put.database - 1], put.key, put.value, flags: 0)
            }
            try Self.check(mdb_txn_commit(txn), "mdb_txn_commit", path)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
    }

    private func put(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], flags: UInt32) throws {
        try key.withUnsafeBytes { k in
            try value.withUnsafeBytes { v in
                var key = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
                var value = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                try Self.check(mdb_put(txn, dbi, &key, &value, flags), "mdb_put", path)
            }
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
