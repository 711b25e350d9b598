/// What a ``TimelineFetcher`` reports on its ``TimelineFetcher/events`` stream.
///
/// ```swift
/// for await event in fetcher.events {
///     switch event {
///     case .fetched(let report, let cursor): print("fetched", report.inserted, cursor)
///     case .failed(let message, let delay): print("failed:", message, "retry in", delay)
///     case .idle(let reason): print("idle:", reason)
///     }
/// }
/// ```
public enum FetcherEvent: Sendable, Hashable {
    /// A page was fetched and ingested; `cursor` is the request that was sent (only `sinceId` for
    /// a refresh, only `maxId` for an older page, neither for the first page).
    ///
    /// ```swift
    /// if case .fetched(let report, _) = event, report.inserted > 0 { … }
    /// ```
    case fetched(IngestReport, cursor: TimelineCursor)
    /// A fetch (or its ingest) in ``TimelineFetcher/run()`` failed; the next attempt waits `retryIn`.
    ///
    /// ```swift
    /// if case .failed(let message, let delay) = event { status = "\(message) (retry in \(delay))" }
    /// ```
    case failed(String, retryIn: Duration)
    /// ``TimelineFetcher/run()`` is not fetching: not logged in, paused, or unreachable.
    ///
    /// ```swift
    /// if case .idle(let reason) = event { status = reason }
    /// ```
    case idle(reason: String)
}
