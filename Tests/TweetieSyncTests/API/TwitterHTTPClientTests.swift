import Foundation
import Testing
@testable import TweetieSync

@Suite("TwitterHTTPClient against a loopback server")
struct TwitterHTTPClientTests {
    let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")

    private func client(_ server: LoopbackHTTPServer, _ credentials: TwitterCredentials) -> TwitterHTTPClient {
        TwitterHTTPClient(
            credentials: credentials,
            baseURL: server.baseURL.appendingPathComponent("1.1/"),
            tokenURL: server.baseURL.appendingPathComponent("oauth2/token"))
    }

    @Test func tokenFlowThenTimeline() async throws {
        let statuses = try TwitterJSONBuilder.data([
            TwitterJSONBuilder.status(id: 1071325319259414528, text: "newest"),
            TwitterJSONBuilder.status(id: 1071325319259414000, text: "older"),
        ])
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/oauth2/token":
                return .json(#"{"token_type":"bearer","access_token":"AAAA%2FTOKEN"}"#)
            case "/1.1/lists/statuses.json":
                guard request.headers["authorization"] == "Bearer AAAA%2FTOKEN" else {
                    return .json(#"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#, status: 401)
                }
                return LoopbackHTTPServer.Response(status: 200, body: statuses)
            default:
                return .json(#"{"errors":[{"code":34,"message":"Sorry, that page does not exist."}]}"#, status: 404)
            }
        }
        defer { server.stop() }
        let api = client(server, .consumer(key: "key+1", secret: "s3cr/t"))
        let page = try await api.timeline(of: list, cursor: TimelineCursor(sinceId: 1071325319259413999))
        #expect(page.tweets.map(\.text) == ["newest", "older"])
        #expect(page.tweets.first?.id == 1071325319259414528)
        // Second request reuses the cached token.
        _ = try await api.timeline(of: list, cursor: TimelineCursor())
        let requests = server.requests
        #expect(requests.map(\.path) == ["/oauth2/token", "/1.1/lists/statuses.json", "/1.1/lists/statuses.json"])
        let token = requests[0]
        #expect(token.method == "POST")
        let expectedBasic = Data("key%2B1:s3cr%2Ft".utf8).base64EncodedString()
        #expect(token.headers["authorization"] == "Basic \(expectedBasic)")
        #expect(String(decoding: token.body, as: UTF8.self) == "grant_type=client_credentials")
        #expect(token.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
        #expect(requests[1].method == "GET")
        #expect(requests[1].query == ["owner_screen_name": "icanzilb", "slug": "RxSwift",
                                      "since_id": "1071325319259413999"])
        #expect(requests[2].query == ["owner_screen_name": "icanzilb", "slug": "RxSwift"])
    }

    @Test func bearerTokenMembersAndUserTimelineParameters() async throws {
        let members = try TwitterJSONBuilder.data(["users": [
            TwitterJSONBuilder.user(id: 1, name: "Ann", screenName: "ann", url: nil),
        ], "next_cursor": 0])
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("members.json")
                ? LoopbackHTTPServer.Response(status: 200, body: members) : .json("[]")
        }
        defer { server.stop() }
        let api = client(server, .bearerToken("given"))
        let page = try await api.members(of: list)
        #expect(page.users.map(\.url) == [""])
        _ = try await api.timeline(of: "ann", cursor: TimelineCursor(maxId: 99))
        let requests = server.requests
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer given" })
        #expect(requests[0].query == ["owner_screen_name": "icanzilb", "slug": "RxSwift", "count": "100",
                                      "skip_status": "1", "include_entities": "false"])
        #expect(requests[1].path == "/1.1/statuses/user_timeline.json")
        #expect(requests[1].query == ["screen_name": "ann", "count": "100", "include_rts": "true",
                                      "contributor_details": "false", "max_id": "99"])
    }

    @Test func unauthorizedCarriesTheServerMessage() async throws {
        let server = try LoopbackHTTPServer { _ in
            .json(#"{"errors":[{"code":89,"message":"Invalid or expired token."}]}"#, status: 401)
        }
        defer { server.stop() }
        let error = try await #require(throws: TwitterAPIError.self) {
            try await client(server, .bearerToken("stale")).timeline(of: list, cursor: TimelineCursor())
        }
        #expect(error == .unauthorized(endpoint: "lists/statuses.json", message: "Invalid or expired token. (code 89)"))
    }

    @Test func rejectedConsumerCredentials() async throws {
        let server = try LoopbackHTTPServer { _ in
            .json(#"{"errors":[{"code":99,"label":"authenticity_token_error","message":"Unable to verify your credentials"}]}"#,
                  status: 403)
        }
        defer { server.stop() }
        let error = try await #require(throws: TwitterAPIError.self) {
            try await client(server, .consumer(key: "k", secret: "s")).members(of: list)
        }
        #expect(error == .httpStatus(endpoint: "oauth2/token", code: 403,
                                     message: "Unable to verify your credentials (code 99)"))
    }

    @Test func malformedJSONNamesTheEndpoint() async throws {
        let server = try LoopbackHTTPServer { _ in .json("<html>Over capacity</html>") }
        defer { server.stop() }
        let error = try await #require(throws: TwitterAPIError.self) {
            try await client(server, .bearerToken("t")).timeline(of: "ann", cursor: TimelineCursor())
        }
        guard case .malformedJSON(let source, _) = error else { Issue.record("unexpected \(error)"); return }
        #expect(source == "statuses/user_timeline.json")
    }

    @Test func tokenResponseWithoutBearer() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"token_type":"mac","access_token":"x"}"#) }
        defer { server.stop() }
        let error = try await #require(throws: TwitterAPIError.self) {
            try await client(server, .consumer(key: "k", secret: "s")).bearerToken()
        }
        guard case .invalidTokenResponse(let reason) = error else { Issue.record("unexpected \(error)"); return }
        #expect(reason.contains("mac"))
    }

    @Test func transportErrorWhenNothingListens() async throws {
        let server = try LoopbackHTTPServer { _ in .json("[]") }
        let url = server.baseURL
        server.stop()   // the port is closed now
        let api = TwitterHTTPClient(credentials: .bearerToken("t"), baseURL: url.appendingPathComponent("1.1/"))
        let error = try await #require(throws: TwitterAPIError.self) {
            try await api.members(of: list)
        }
        guard case .transport(let endpoint, _) = error else { Issue.record("unexpected \(error)"); return }
        #expect(endpoint == "lists/members.json")
    }
}
