import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real Twitter API v1.1 over `URLSession`, with app-only (bearer token) authentication.
///
/// With ``TwitterCredentials/consumer(key:secret:)`` the client first calls `POST oauth2/token`
/// (HTTP Basic with the URL-encoded key and secret, body `grant_type=client_credentials`) and
/// caches the bearer token; a 401 drops the cached token so the next call fetches a new one.
/// Requests use the same parameters as the book's client (see ``APICacheSource``).
///
/// ```swift
/// let client = TwitterHTTPClient(credentials: .consumer(key: key, secret: secret))
/// let page = try await client.timeline(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                                      cursor: TimelineCursor())
/// ```
public actor TwitterHTTPClient: TwitterAPI {
    /// The default REST base URL, `https://api.twitter.com/1.1/`.
    ///
    /// ```swift
    /// TwitterHTTPClient.defaultBaseURL.absoluteString   // "https://api.twitter.com/1.1/"
    /// ```
    public static let defaultBaseURL = URL(string: "https://api.twitter.com/1.1/")!
    /// The default token endpoint, `https://api.twitter.com/oauth2/token`.
    ///
    /// ```swift
    /// TwitterHTTPClient.defaultTokenURL.absoluteString   // "https://api.twitter.com/oauth2/token"
    /// ```
    public static let defaultTokenURL = URL(string: "https://api.twitter.com/oauth2/token")!

    private let credentials: TwitterCredentials
    private let baseURL: URL
    private let tokenURL: URL
    private let session: URLSession
    private let logger: Logger
    private var cachedToken: String?

    /// Creates a client; the URLs and session are injectable (tests use a loopback server).
    ///
    /// ```swift
    /// let client = TwitterHTTPClient(credentials: .bearerToken(token),
    ///                                baseURL: URL(string: "http://127.0.0.1:8080/1.1/")!)
    /// ```
    public init(
        credentials: TwitterCredentials,
        baseURL: URL = TwitterHTTPClient.defaultBaseURL,
        tokenURL: URL = TwitterHTTPClient.defaultTokenURL,
        session: URLSession = URLSession(configuration: .ephemeral),
        logger: Logger = Logger(label: "TweetieSync.TwitterHTTPClient")
    ) {
        self.credentials = credentials
        self.baseURL = baseURL
        self.tokenURL = tokenURL
        self.session = session
        self.logger = logger
        if case .bearerToken(let token) = credentials { cachedToken = token }
    }

    /// `GET lists/statuses.json` with `owner_screen_name`, `slug` and the cursor's bounds.
    ///
    /// ```swift
    /// let page = try await client.timeline(of: list, cursor: TimelineCursor(sinceId: newest))
    /// ```
    public func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage {
        try await statuses(.listTimeline(list, cursor: cursor))
    }

    /// `GET statuses/user_timeline.json` with `screen_name`, `count=100`, `include_rts=true`,
    /// `contributor_details=false` and the cursor's bounds.
    ///
    /// ```swift
    /// let page = try await client.timeline(of: "icanzilb", cursor: TimelineCursor())
    /// ```
    public func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage {
        try await statuses(.userTimeline(username, cursor: cursor))
    }

    /// `GET lists/members.json` with `count=100`, `skip_status=1`, `include_entities=false`.
    ///
    /// ```swift
    /// let members = try await client.members(of: list).users
    /// ```
    public func members(of list: ListIdentifier) async throws -> MembersPage {
        let request = TwitterRequest.listMembers(list)
        let data = try await get(request)
        let batch = try TwitterJSON.decodeMembers(data, source: request.path)
        logDropped(batch, endpoint: request.path)
        return MembersPage(users: batch.items, dropped: batch.dropped)
    }

    /// The bearer token in use, fetching it from `oauth2/token` first if needed.
    ///
    /// ```swift
    /// let token = try await client.bearerToken()
    /// ```
    public func bearerToken() async throws -> String {
        if let cachedToken { return cachedToken }
        guard case .consumer(let key, let secret) = credentials else {
            preconditionFailure("a bearer-token client always has a cached token")
        }
        let token = try await fetchToken(key: key, secret: secret)
        cachedToken = token
        return token
    }

    private func statuses(_ request: TwitterRequest) async throws -> TimelinePage {
        let data = try await get(request)
        let batch = try TwitterJSON.decodeStatuses(data, source: request.path)
        logDropped(batch, endpoint: request.path)
        return TimelinePage(tweets: batch.items, dropped: batch.dropped)
    }

    private func get(_ request: TwitterRequest) async throws -> Data {
        let token = try await bearerToken()
        let query = request.sortedParameters
            .map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }
            .joined(separator: "&")
        guard let url = URL(string: baseURL.appendingPathComponent(request.path).absoluteString + "?" + query) else {
            throw TwitterAPIError.transport(endpoint: request.path, reason: "cannot build a URL from \(baseURL)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "GET"
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, status) = try await send(urlRequest, endpoint: request.path)
        if status == 401, case .consumer = credentials {
            cachedToken = nil
        }
        try Self.check(status: status, data: data, endpoint: request.path)
        return data
    }

    private func fetchToken(key: String, secret: String) async throws -> String {
        let endpoint = "oauth2/token"
        let basic = Data("\(Self.formEncode(key)):\(Self.formEncode(secret))".utf8).base64EncodedString()
        var request = URLRequest(url: tokenURL)
        request.httpMethod = "POST"
        request.setValue("Basic \(basic)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded;charset=UTF-8", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("grant_type=client_credentials".utf8)
        let (data, status) = try await send(request, endpoint: endpoint)
        try Self.check(status: status, data: data, endpoint: endpoint)
        struct TokenResponse: Decodable {
            let token_type: String?
            let access_token: String?
        }
        let response: TokenResponse
        do {
            response = try JSONDecoder().decode(TokenResponse.self, from: data)
        } catch {
            throw TwitterAPIError.malformedJSON(source: endpoint, reason: DecodingAttempt<TokenResponse>.describe(error))
        }
        guard response.token_type?.lowercased() == "bearer" else {
            throw TwitterAPIError.invalidTokenResponse(
                reason: "token_type is \(response.token_type.map { "\"\($0)\"" } ?? "missing"), expected \"bearer\"")
        }
        guard let token = response.access_token, !token.isEmpty else {
            throw TwitterAPIError.invalidTokenResponse(reason: "access_token is missing or empty")
        }
        logger.debug("obtained an app-only bearer token", metadata: ["endpoint": "\(tokenURL)"])
        return token
    }

    private func send(_ request: URLRequest, endpoint: String) async throws -> (Data, Int) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw TwitterAPIError.transport(endpoint: endpoint, reason: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else {
            throw TwitterAPIError.transport(endpoint: endpoint, reason: "the response is not HTTP")
        }
        return (data, http.statusCode)
    }

    private static func check(status: Int, data: Data, endpoint: String) throws {
        guard !(200..<300).contains(status) else { return }
        let message = serverMessage(data)
        if status == 401 {
            throw TwitterAPIError.unauthorized(endpoint: endpoint, message: message)
        }
        throw TwitterAPIError.httpStatus(endpoint: endpoint, code: status, message: message)
    }

    /// Twitter's `{"errors":[{"code":89,"message":"..."}]}` as text, or the raw body (shortened).
    private static func serverMessage(_ data: Data) -> String {
        struct ErrorBody: Decodable {
            struct Item: Decodable {
                let code: Int?
                let message: String?
            }
            let errors: [Item]
        }
        if let body = try? JSONDecoder().decode(ErrorBody.self, from: data), !body.errors.isEmpty {
            return body.errors.map { item in
                (item.message ?? "no message") + (item.code.map { " (code \($0))" } ?? "")
            }.joined(separator: "; ")
        }
        let text = String(decoding: data.prefix(300), as: UTF8.self)
        return text.isEmpty ? "empty response body" : text
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    private static func formEncode(_ text: String) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        unreserved.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private func logDropped<T>(_ batch: DecodedBatch<T>, endpoint: String) {
        guard !batch.dropped.isEmpty else { return }
        logger.warning(
            "response had elements that did not decode",
            metadata: ["endpoint": "\(endpoint)",
                       "dropped": "\(DroppedElement.summary(of: batch.dropped, total: batch.items.count + batch.dropped.count))"])
    }
}
