/// Names a Twitter list by its owner's handle and its slug.
///
/// ```swift
/// let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")
/// ```
public struct ListIdentifier: Hashable, Sendable, Codable {
    /// The list owner's handle without `@` (`owner_screen_name`).
    ///
    /// ```swift
    /// list.username   // "icanzilb"
    /// ```
    public var username: String
    /// The list's slug (`slug`).
    ///
    /// ```swift
    /// list.slug   // "RxSwift"
    /// ```
    public var slug: String

    /// Creates a list identifier.
    ///
    /// ```swift
    /// let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")
    /// ```
    public init(username: String, slug: String) {
        self.username = username
        self.slug = slug
    }
}

extension ListIdentifier {
    /// The list's key as recorded in ``Tweet/lists`` and ``User/lists``: `owner/slug`.
    ///
    /// ```swift
    /// print(ListIdentifier(username: "icanzilb", slug: "RxSwift").key) // "icanzilb/RxSwift"
    /// ```
    public var key: String { "\(username)/\(slug)" }
}
