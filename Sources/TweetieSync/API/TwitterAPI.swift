/// A source of Twitter data: the real HTTP API, a directory of cached responses, or a simulation.
///
/// Inject one into whatever fetches timelines, so the app runs against any of them.
///
/// ```swift
/// let api: any TwitterAPI = SimulatedTwitterSource(seed: 42)
/// let page = try await api.timeline(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                                   cursor: TimelineCursor())
/// ```
public protocol TwitterAPI: Sendable {
    /// A page of a list's timeline (`lists/statuses.json`), newest first, bounded by `cursor`.
    ///
    /// ```swift
    /// let page = try await api.timeline(of: list, cursor: TimelineCursor(sinceId: newest))
    /// ```
    func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage
    /// A page of one user's timeline (`statuses/user_timeline.json`), newest first, bounded by `cursor`.
    ///
    /// ```swift
    /// let page = try await api.timeline(of: "icanzilb", cursor: TimelineCursor())
    /// ```
    func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage
    /// The members of a list (`lists/members.json`).
    ///
    /// ```swift
    /// let members = try await api.members(of: list).users
    /// ```
    func members(of list: ListIdentifier) async throws -> MembersPage
}
