import TweetieSync

/// What ``TimelineDemo`` reports while it runs.
///
/// ```swift
/// for await event in demo.events { if case .update(let u) = event { print(u.counts) } }
/// ```
enum TimelineDemoEvent: Sendable {
    /// The view model delivered sections; the changeset was applied to the previous sections.
    case update(TimelineDemoUpdate)
    /// The fetcher finished a tick.
    case fetched(tick: Int, report: IngestReport)
    /// A fetch failed; the demo goes on.
    case failed(tick: Int, message: String)
}
