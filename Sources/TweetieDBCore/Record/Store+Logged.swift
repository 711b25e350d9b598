/// The one write path of `Store.write` (synchronous and async): the caller's body with a
/// ``StoreWriter``, then its change-log entry, in the same transaction.
extension Store {
    /// A write's value and the change-log entry it appended (`nil`: it changed nothing).
    ///
    /// ```swift
    /// let committed = try environment.write { tx in try logged(body, in: tx) }
    /// if let sequence = committed.sequence { notifier.didCommit(sequence: sequence) }
    /// ```
    struct Committed<T> {
        var value: T
        var sequence: UInt64?
    }

    /// Runs `body` with a ``StoreWriter`` on `tx`, then appends its changes to the change log in
    /// the same transaction.
    ///
    /// ```swift
    /// let committed = try environment.write { tx in try logged(body, in: tx) }
    /// ```
    func logged<T>(_ body: (StoreWriter) throws -> T, in tx: WriteTransaction) throws -> Committed<T> {
        let writer = StoreWriter(store: self, transaction: tx)
        let value = try body(writer)
        let sequence = try ChangeLog.append(writer.recorder.changes, maxListed: configuration.maxListedChangesPerCommit,
                                            retention: configuration.changeLogRetention, in: tx, log: log, meta: meta)
        return Committed(value: value, sequence: sequence)
    }
}

extension Store.Committed: Sendable where T: Sendable {}
