/// Errors of the Twitter API sources: what failed, where, and why.
///
/// ```swift
/// do { _ = try await client.members(of: list) }
/// catch TwitterAPIError.unauthorized(let endpoint, let message) { print(endpoint, message) }
/// ```
public enum TwitterAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered 401; `message` is Twitter's own error text.
    ///
    /// ```swift
    /// // .unauthorized(endpoint: "lists/statuses.json", message: "Invalid or expired token. (code 89)")
    /// ```
    case unauthorized(endpoint: String, message: String)
    /// The server answered with another non-2xx status.
    ///
    /// ```swift
    /// // .httpStatus(endpoint: "statuses/user_timeline.json", code: 404, message: "Sorry, that page does not exist. (code 34)")
    /// ```
    case httpStatus(endpoint: String, code: Int, message: String)
    /// A body (from an endpoint or a cache file) was not JSON or not the shape the endpoint returns.
    ///
    /// ```swift
    /// // .malformedJSON(source: "lists/members.json", reason: "not valid JSON (...)")
    /// ```
    case malformedJSON(source: String, reason: String)
    /// The request did not get a response (connection refused, timeout, ...).
    ///
    /// ```swift
    /// // .transport(endpoint: "oauth2/token", reason: "Could not connect to the server.")
    /// ```
    case transport(endpoint: String, reason: String)
    /// `oauth2/token` answered, but without a bearer token.
    ///
    /// ```swift
    /// // .invalidTokenResponse(reason: "token_type is \"mac\", expected \"bearer\"")
    /// ```
    case invalidTokenResponse(reason: String)
    /// A cache file exists but could not be read.
    ///
    /// ```swift
    /// // .unreadableFile(path: "/cache/lists/statuses.json-...", reason: "Permission denied")
    /// ```
    case unreadableFile(path: String, reason: String)
    /// A response could not be recorded into an API cache (``RecordingTwitterAPI``).
    ///
    /// ```swift
    /// // .unwritableFile(path: "/cache/lists/statuses.json-...", reason: "No space left on device")
    /// ```
    case unwritableFile(path: String, reason: String)

    /// A one-line explanation naming the endpoint or file.
    public var description: String {
        switch self {
        case .unauthorized(let endpoint, let message):
            return "Twitter API \(endpoint): unauthorized (401): \(message)"
        case .httpStatus(let endpoint, let code, let message):
            return "Twitter API \(endpoint): HTTP status \(code): \(message)"
        case .malformedJSON(let source, let reason):
            return "Twitter API \(source): malformed JSON: \(reason)"
        case .transport(let endpoint, let reason):
            return "Twitter API \(endpoint): request failed: \(reason)"
        case .invalidTokenResponse(let reason):
            return "Twitter API oauth2/token: no usable bearer token: \(reason)"
        case .unreadableFile(let path, let reason):
            return "API cache file \(path): cannot be read: \(reason)"
        case .unwritableFile(let path, let reason):
            return "API cache file \(path): cannot be recorded: \(reason)"
        }
    }
}
