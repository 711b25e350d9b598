/// Answers "is it worth trying the network now?" for the fetcher's gating.
///
/// Implementations must say in ``description`` what they actually check, because "reachable"
/// can mean anything from "an interface is up" to "the API host answered".
///
/// ```swift
/// struct Offline: Reachability {
///     func isReachable() async -> Bool { false }
///     var description: String { "always offline" }
/// }
/// ```
public protocol Reachability: Sendable {
    /// Whether a fetch should be attempted now.
    ///
    /// ```swift
    /// if await reachability.isReachable() { try await fetcher.refresh() }
    /// ```
    func isReachable() async -> Bool
    /// What this check looks at, for logs and idle reasons.
    ///
    /// ```swift
    /// print(reachability.description) // "a non-loopback network interface is up"
    /// ```
    var description: String { get }
}
