import Foundation

extension Store {
    /// The floor a write benchmark compares the store with: puts `pairs` with plain `mdb_put`
    /// into the unnamed database of a fresh environment (no indexes, no change log) opened with
    /// `configuration`'s environment settings, in one transaction, and returns the seconds from
    /// the transaction's begin to its commit. The environment is removed afterwards.
    ///
    /// Package access: `tweetie-db bench writes` is its only user; a library user has no need of it.
    ///
    /// ```swift
    /// let seconds = try Store.rawPutFloor((keys: keys, values: values), configuration: configuration)
    /// ```
    package static func rawPutFloor(_ pairs: (keys: [[UInt8]], values: [[UInt8]]), configuration: StoreConfiguration) throws -> Double {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tweetiedb-raw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = try Environment.open(at: path, configuration: configuration.environment)
        defer { environment.close() }
        let database = try environment.database(named: nil)
        let start = DispatchTime.now().uptimeNanoseconds
        try environment.write { tx in
            for i in pairs.keys.indices { try tx.put(pairs.keys[i], pairs.values[i], in: database) }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
