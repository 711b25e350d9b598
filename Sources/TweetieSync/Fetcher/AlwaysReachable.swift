/// A reachability that is always reachable: for tests and for offline sources
/// (``SimulatedTwitterSource``, ``APICacheSource``) that need no network.
///
/// ```swift
/// let fetcher = TimelineFetcher(list: list, api: SimulatedTwitterSource(seed: 1), store: store,
///                               account: .authorized(token: "t"), reachability: AlwaysReachable())
/// ```
public struct AlwaysReachable: Reachability, CustomStringConvertible {
    /// Creates the check.
    ///
    /// ```swift
    /// let reachability = AlwaysReachable()
    /// ```
    public init() {}

    /// Always `true`.
    public func isReachable() async -> Bool { true }

    /// Says that nothing is checked.
    public var description: String { "always reachable (nothing is checked)" }
}
