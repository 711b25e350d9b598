/// How ``TwitterHTTPClient`` authenticates: a bearer token, or app-only OAuth2 consumer credentials.
///
/// ```swift
/// let direct = TwitterCredentials.bearerToken("AAAA...")
/// let appOnly = TwitterCredentials.consumer(key: "xvz1evFS4wEEPTGEFPHBog",
///                                           secret: "L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg")
/// ```
public enum TwitterCredentials: Sendable, Hashable {
    /// A ready bearer token, sent as `Authorization: Bearer <token>`.
    ///
    /// ```swift
    /// let credentials = TwitterCredentials.bearerToken(token)
    /// ```
    case bearerToken(String)
    /// Consumer key and secret, exchanged once for a bearer token via `POST oauth2/token`.
    ///
    /// ```swift
    /// let credentials = TwitterCredentials.consumer(key: key, secret: secret)
    /// ```
    case consumer(key: String, secret: String)
}
