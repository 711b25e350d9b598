import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (ephemeral port) for testing the HTTP client.
///
/// Bounded: it serves at most `maxRequests` connections (one request each, `Connection: close`)
/// and stops when ``stop()`` is called (at the latest when it is deinitialized), or by itself after `lifetime` seconds (default 1,800: only a bound for a server a failing test never stops; a sanitizer run delayed requests past an earlier 120 s bound, which the client then saw as "connection refused").
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]   // names lowercased
        var body: Data

        var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        var query: [String: String] {
            guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
            var result: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                result[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return result
        }
    }

    struct Response: Sendable {
        var status: Int
        var body: Data
        var contentType = "application/json;charset=utf-8"

        static func json(_ text: String, status: Int = 200) -> Response {
            Response(status: status, body: Data(text.utf8))
        }
    }

    enum ServerError: Error, CustomStringConvertible {
        case socket(String, Int32)
        var description: String {
            switch self {
            case .socket(let call, let code): "loopback server: \(call) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    let port: UInt16
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(maxRequests: Int = 8, lifetime: TimeInterval = 1_800, handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError.socket("socket", errno) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let code = errno; close(fd); throw ServerError.socket("bind", code) }
        guard listen(fd, 8) == 0 else { let code = errno; close(fd); throw ServerError.socket("listen", code) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { let code = errno; close(fd); throw ServerError.socket("getsockname", code) }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in
            serve(maxRequests: maxRequests, deadline: deadline)
        }
        thread.start()
    }

    /// Every request received so far.
    var requests: [Request] { lock.withLock { recorded } }

    /// Stops accepting connections and waits until the serving thread has closed the socket.
    func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        if !wasStopped { finished.wait() }
    }

    deinit { stop() }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func serve(maxRequests: Int, deadline: Date) {
        var served = 0
        while served < maxRequests, !isStopped, Date() < deadline {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            served += 1
            handle(connection)
            close(connection)
        }
        close(listener)
        lock.withLock { stopped = true }
        finished.signal()
    }

    private func handle(_ connection: Int32) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var request: Request?
        while request == nil, buffer.count < 1_000_000 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            buffer.append(contentsOf: chunk[0..<count])
            guard let end = buffer.range(of: separator) else { continue }
            let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst().split(separator: " ")
            guard requestLine.count >= 2 else { return }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while buffer.count - buffer.distance(from: buffer.startIndex, to: end.upperBound) < length {
                let more = recv(connection, &chunk, chunk.count, 0)
                guard more > 0 else { return }
                buffer.append(contentsOf: chunk[0..<more])
            }
            let bodyStart = end.upperBound
            let body = buffer[bodyStart..<buffer.index(bodyStart, offsetBy: length)]
            request = Request(method: String(requestLine[0]), target: String(requestLine[1]),
                              headers: headers, body: Data(body))
        }
        guard let request else { return }
        lock.withLock { recorded.append(request) }
        let response = handler(request)
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        head += "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n"
        head += "Connection: close\r\n\r\n"
        let bytes = Array(Data(head.utf8) + response.body)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { return }
            sent += written
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        default: "Status"
        }
    }
}
