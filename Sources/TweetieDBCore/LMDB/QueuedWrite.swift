/// An async write waiting on the environment's writer thread: its body, and what to do once its
/// outcome is known (after the commit that made it durable, or the failure).
///
/// Writes queued one after another run as a group in one durable commit
/// (``Environment/commitGroup(_:)``); each is answered only after that commit.
///
/// ```swift
/// let write = QueuedWrite(environment: env, body: { tx in try tx.put(key, value, in: tweets) },
///                         committed: { result in continuation.resume(with: result) })
/// _ = env.writerThread.enqueue(write)
/// ```
final class QueuedWrite: @unchecked Sendable {
    /// The environment the write belongs to (kept alive while the write waits).
    let environment: Environment
    /// Runs the body in `tx` and keeps its value; may run more than once (map growth, a group
    /// retried write by write): the last run's value is the one reported.
    let run: (WriteTransaction) throws -> Void
    /// Reports the outcome: `nil` once the body's last run is committed and durable, or the error.
    /// Called once, on the writer thread.
    let finish: ((any Error)?) -> Void

    init<T>(environment: Environment, body: @escaping (WriteTransaction) throws -> T,
            committed: @escaping (Result<T, any Error>) -> Void) {
        self.environment = environment
        // Only the writer thread touches the value: runs and the report never overlap.
        var value: T?
        run = { tx in value = try body(tx) }
        finish = { error in
            if let error {
                committed(.failure(error))
            } else if let result = value {
                committed(.success(result))
            } else {
                committed(.failure(StoreError(.invalidArgument, operation: "write", path: environment.path,
                                              message: "internal error: a write was reported committed before its body ran")))
            }
        }
    }
}
