import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import TweetieSync

/// Routes every request: `GET /` and the page's files, `GET /feeds/…`, `/healthz`, `/metrics`.
/// Every response carries `Content-Security-Policy: default-src 'self'` and
/// `X-Content-Type-Options: nosniff`; errors are JSON (`{"error":"…"}`).
struct ServeResponder: HTTPResponder {
    typealias Context = ServeRequestContext

    let server: TweetieServer

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func respond(to request: Request, context: Context) async throws -> Response {
        var response = await route(request, context: context)
        response.headers[.contentSecurityPolicy] = "default-src 'self'"
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return response
    }

    private func route(_ request: Request, context: Context) async -> Response {
        let path = request.uri.path
        guard request.method == .get else {
            var response = Self.error(.methodNotAllowed, "only GET is served: this server is read-only")
            response.headers[.allow] = "GET"
            return response
        }
        switch path {
        case "/": return Self.file(PackageResources.index_html, type: "text/html; charset=utf-8")
        case "/app.css": return Self.file(PackageResources.app_css, type: "text/css; charset=utf-8")
        case "/app.js": return Self.file(PackageResources.app_js, type: "text/javascript; charset=utf-8")
        case "/favicon.svg": return Self.file(PackageResources.favicon_svg, type: "image/svg+xml")
        case "/healthz":
            return Self.json(.ok, Data(#"{"status":"ok"}"#.utf8))
        case "/metrics":
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: server.metrics.text())))
        default:
            break
        }
        guard path.hasPrefix("/feeds/") else { return Self.error(.notFound, "no such path: \(path)") }
        let request = FeedRequest.parse(path: path, query: request.uri.queryParameters, lastEventID: request.headers[Self.lastEventID],
                                        acceptsEvents: request.headers[.accept]?.contains("text/event-stream") ?? false,
                                        ifNoneMatch: request.headers[.ifNoneMatch])
        switch request {
        case .failure(.notFound(let message)): return Self.error(.notFound, message)
        case .failure(.badRequest(let message)): return Self.error(.badRequest, message)
        case .success(let feedRequest):
            return await feed(feedRequest, context: context)
        }
    }

    private func feed(_ request: FeedRequest, context: Context) async -> Response {
        do {
            if request.acceptsEvents { return try await events(request, context: context) }
            let hub = try server.hubs.hub(for: request.spec)
            let snapshot = try await hub.currentSnapshot { request.matches(etagOf: $0) }
            let etag = FeedRequest.etag(snapshot.position)
            guard let json = snapshot.json else {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "no-cache"])
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .eTag: etag, .cacheControl: "no-cache"],
                            body: ResponseBody(byteBuffer: json))
        } catch is FeedHubs.TooManyFeeds {
            return Self.unavailable("too many distinct feeds are observed (at most \(server.configuration.maxFeeds))")
        } catch is FeedHubs.TooManyWindows {
            return Self.unavailable("too many windows of this feed are in use (at most \(server.configuration.maxWindowsPerFeed) limits at once); ask for a limit already in use, or later")
        } catch {
            return Self.unavailable("the feed is not available: \(error)")
        }
    }

    private func events(_ request: FeedRequest, context: Context) async throws -> Response {
        let maxClients = server.configuration.maxClients
        if server.stopping.load(ordering: .acquiring) { return Self.unavailable("the server is shutting down") }
        guard server.clientCount.add(1, ordering: .relaxed).newValue <= maxClients else {
            server.clientCount.subtract(1, ordering: .relaxed)
            server.metrics.refusals.increment()
            return Self.unavailable("\(maxClients) clients are connected, the most this server takes (--max-clients)")
        }
        let hub: FeedHub
        let id: Int
        do {
            hub = try server.hubs.hub(for: request.spec)
            id = try await hub.subscribe(after: request.after)
        } catch {
            server.clientCount.subtract(1, ordering: .relaxed)
            throw error
        }
        // A client that goes away is noticed by the connection's read side at once: its slot
        // (toward --max-clients) and its queue are freed now, not at the next write.
        context.connectionClosed.whenComplete { _ in hub.unsubscribe(id) }
        context.startEventStream()
        let server = self.server
        let body = ResponseBody { writer in
            defer {
                hub.unsubscribe(id)
                server.clientCount.subtract(1, ordering: .relaxed)
            }
            while case .frame(let frame) = try await hub.next(id) {
                try await writer.write(frame.bytes)
                if let arrived = frame.arrived {
                    server.metrics.fanOutLatency.record(arrived.duration(to: .now))
                    server.metrics.deliveries.increment()
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache",
                                               HTTPField.Name("X-Accel-Buffering")!: "no"], body: body)
    }

    private static func file(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func json(_ status: HTTPResponse.Status, _ data: Data) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
        return json(status, body)
    }

    private static func unavailable(_ message: String) -> Response {
        var response = error(.serviceUnavailable, message)
        response.headers[.retryAfter] = "5"
        return response
    }
}
