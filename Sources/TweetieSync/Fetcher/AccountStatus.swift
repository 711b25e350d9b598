/// Whether the app has a Twitter account to fetch with (the book's `AccountStatus`).
///
/// ```swift
/// let status: AccountStatus = token.map { .authorized(token: $0) } ?? .unavailable
/// await fetcher.setAccount(status)
/// ```
public enum AccountStatus: Sendable, Hashable {
    /// No usable account: the fetcher stays idle and `loggedIn` is `false`.
    ///
    /// ```swift
    /// await fetcher.setAccount(.unavailable)
    /// ```
    case unavailable
    /// An account with its (bearer) token: fetching may run.
    ///
    /// ```swift
    /// await fetcher.setAccount(.authorized(token: bearer))
    /// ```
    case authorized(token: String)

    /// Whether this status allows fetching.
    public var isAuthorized: Bool {
        if case .authorized = self { return true }
        return false
    }
}
