extension Store {
    /// Calls `handler` after every commit to this store that logged a change, in this process or
    /// another (the same wake-ups observations get: the notify file, else polling). The handler
    /// runs on the notifier's thread: it should only signal. For the package's own followers (the
    /// replicator's push loop), which want a wake-up rather than results.
    package func subscribeToCommits(_ handler: @escaping @Sendable () -> Void) -> UInt64 {
        notifier.subscribe(handler)
    }

    /// Stops the calls of a ``subscribeToCommits(_:)`` handler.
    package func unsubscribeFromCommits(_ subscription: UInt64) {
        notifier.unsubscribe(subscription)
    }
}
