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

extension ListIdentifier {
    /// The book's list, which every command and the server follow unless told otherwise (and the
    /// one the simulated source serves).
    ///
    /// ```swift
    /// print(ListIdentifier.rxSwift.key) // "icanzilb/RxSwift"
    /// ```
    public static let rxSwift = ListIdentifier(username: "icanzilb", slug: "RxSwift")

    /// Text that is not a list: what `init(parsing:)` throws, its sentence naming the text and the
    /// form expected.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        /// The text that was given.
        public var text: String
        public var description: String { "'\(text)' is not a list: write it as OWNER/SLUG, like \(ListIdentifier.rxSwift.key)." }
    }

    /// Parses the form ``key`` prints, `OWNER/SLUG`: exactly one `/`, neither side empty. This is how
    /// `tweetie-db`, `tweetie-serve` and their benchmarks read `--list`.
    ///
    /// ```swift
    /// let list = try ListIdentifier(parsing: "icanzilb/RxSwift")   // "RxSwift" alone throws
    /// ```
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw ParseError(text: text) }
        self.init(username: String(parts[0]), slug: String(parts[1]))
    }
}
