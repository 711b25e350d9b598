import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP proxy for fault tests: it listens on 127.0.0.1 (``port``, chosen by the system)
/// and relays each connection to the target, so that a test can cut the connections between a
/// client and its server (``cutAll()``) or refuse new ones (``setRefusing(_:)``) while both run.
///
/// ```swift
/// let proxy = try TCPProxy(targetPort: server.port)   // server: a PostgresTestServer
/// defer { proxy.close() }
/// let url = try PostgresTestServer.url(database, port: proxy.port)   // the client connects here
/// proxy.cutAll()               // the client's connection ends: it sees end of stream
/// proxy.setRefusing(true)      // its reconnections are accepted and closed at once
/// proxy.setRefusing(false)     // and now they go through again
/// ```
///
/// One thread accepts; each connection has its own thread, which relays both ways with `poll`. A
/// side's end of stream is passed on (half-close); a reset or a failed write ends both sides.
/// Writes use `MSG_NOSIGNAL`: a cut never raises SIGPIPE in the test process.
public final class TCPProxy: @unchecked Sendable {
    /// The port the proxy listens on, on 127.0.0.1.
    public let port: Int
    private let core: Core

    /// Listens on 127.0.0.1, on a free port, and relays every connection to `targetHost`
    /// (an IPv4 address, or `localhost`) port `targetPort`. A connection that cannot reach the
    /// target is closed at once.
    public init(targetHost: String = "127.0.0.1", targetPort: Int) throws {
        guard (1...65_535).contains(targetPort) else { throw TCPProxyError("bad target port \(targetPort)") }
        var target = in_addr()
        guard inet_pton(AF_INET, targetHost == "localhost" ? "127.0.0.1" : targetHost, &target) == 1 else {
            throw TCPProxyError("the target host must be an IPv4 address or localhost, not \(targetHost)")
        }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw TCPProxyError.system("socket") }
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            let error = TCPProxyError.system("bind or listen on 127.0.0.1")
            Glibc.close(listener)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else {
            let error = TCPProxyError.system("getsockname")
            Glibc.close(listener)
            throw error
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let core = Core(listener: listener, targetAddress: target.s_addr, targetPort: UInt16(targetPort))
        self.core = core
        let thread = Thread { core.acceptLoop() }
        thread.name = "TCPProxy :\(port)"
        thread.start()
    }

    deinit { close() }

    /// The connections being relayed now.
    public var connectionCount: Int { core.state.withLock { $0.pairs.count } }

    /// The connections accepted so far, refused ones included.
    public var acceptedCount: Int { core.state.withLock { $0.accepted } }

    /// Cuts every connection being relayed, both sides, and returns once they are closed: the
    /// client sees its connection end (end of stream, or a reset when it writes), and so does the
    /// server. Returns how many were cut. New connections are relayed as before.
    @discardableResult
    public func cutAll() -> Int {
        let ids = core.state.withLock { state -> [Int] in
            for pair in state.pairs.values { Core.cut(pair) }
            return Array(state.pairs.keys)
        }
        core.waitUntilClosed(ids)
        return ids.count
    }

    /// While refusing, each new connection is accepted and closed at once (the client connects,
    /// then reads end of stream). The connections being relayed stay: `cutAll()` cuts them.
    public func setRefusing(_ refusing: Bool) {
        core.state.withLock { $0.refusing = refusing }
    }

    /// Stops listening (connecting to ``port`` is then refused) and cuts every connection. Also
    /// done when the proxy is released; a second call does nothing.
    public func close() {
        let core = self.core
        let ids = core.state.withLock { state -> [Int]? in
            guard !state.closed else { return nil }
            state.closed = true
            _ = shutdown(core.listener, Int32(SHUT_RDWR))
            for pair in state.pairs.values { Core.cut(pair) }
            return Array(state.pairs.keys)
        }
        guard let ids else { return }
        _ = core.acceptLoopEnded.wait(timeout: .now() + 5)
        core.waitUntilClosed(ids)
    }
}

/// Why a ``TCPProxy`` could not start.
public struct TCPProxyError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    static func system(_ call: String) -> TCPProxyError {
        TCPProxyError("\(call): \(String(cString: strerror(errno)))")
    }
}

/// What the threads share: the listening socket, the target and the connections. Only this, never
/// the `TCPProxy`, is captured by the threads, so that releasing the proxy closes it.
private final class Core: Sendable {
    struct Pair: Sendable {
        let client: Int32
        let server: Int32
    }

    struct State: Sendable {
        var refusing = false
        var closed = false
        var accepted = 0
        var nextID = 0
        /// The connections being relayed. A relay thread removes its pair (under the lock) before
        /// it closes the descriptors, so a descriptor found here is still open: `cut` under the
        /// lock never reaches a descriptor number that was closed and reused.
        var pairs: [Int: Pair] = [:]
    }

    let listener: Int32
    let targetAddress: UInt32
    let targetPort: UInt16
    let state = Mutex(State())
    let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(listener: Int32, targetAddress: UInt32, targetPort: UInt16) {
        self.listener = listener
        self.targetAddress = targetAddress
        self.targetPort = targetPort
    }

    /// Shuts both sockets down: each peer gets end of stream, and the relay thread wakes up,
    /// sees end of stream on both, and closes them.
    static func cut(_ pair: Pair) {
        _ = shutdown(pair.client, Int32(SHUT_RDWR))
        _ = shutdown(pair.server, Int32(SHUT_RDWR))
    }

    /// Waits (at most 5 s) until the relay threads of `ids` have closed their sockets.
    func waitUntilClosed(_ ids: [Int]) {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if state.withLock({ state in ids.allSatisfy { state.pairs[$0] == nil } }) { return }
            usleep(1_000)
        }
    }

    func acceptLoop() {
        while true {
            var listening = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&listening, 1, 100)
            if state.withLock({ $0.closed }) { break }
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // EAGAIN, ECONNABORTED; out of descriptors: do not spin.
                if errno != EINTR && errno != EAGAIN && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let refused = state.withLock { state -> Bool in
                state.accepted += 1
                return state.refusing || state.closed
            }
            if refused {
                Glibc.close(client)
                continue
            }
            let server = connectToTarget()
            guard server >= 0 else {
                Glibc.close(client)
                continue
            }
            Self.noDelay(client)
            Self.noDelay(server)
            let pair = Pair(client: client, server: server)
            let id = state.withLock { state -> Int? in
                guard !state.closed, !state.refusing else { return nil }
                state.nextID += 1
                state.pairs[state.nextID] = pair
                return state.nextID
            }
            guard let id else {
                Glibc.close(client)
                Glibc.close(server)
                continue
            }
            let thread = Thread { self.relay(id: id, pair) }
            thread.name = "TCPProxy relay \(id)"
            thread.start()
        }
        Glibc.close(listener)
        acceptLoopEnded.signal()
    }

    /// A connected socket to the target, or -1.
    private func connectToTarget() -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = targetPort.bigEndian
        address.sin_addr.s_addr = targetAddress
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == 0 { return fd }
            if errno == EINTR { continue }
            Glibc.close(fd)
            return -1
        }
    }

    private static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Relays both ways until both sides have ended (or one failed), then closes both.
    private func relay(id: Int, _ pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let sockets = [pair.client, pair.server]
        // Whether each side may still send (no end of stream read from it yet).
        var sending = [true, true]
        var descriptors = [pollfd(fd: pair.client, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: pair.server, events: Int16(POLLIN), revents: 0)]
        relaying: while sending[0] || sending[1] {
            for side in 0..<2 {
                descriptors[side].fd = sending[side] ? sockets[side] : -1
                descriptors[side].revents = 0
            }
            let ready = poll(&descriptors, 2, 1_000)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for side in 0..<2 where sending[side] && descriptors[side].revents != 0 {
                let from = sockets[side], to = sockets[1 - side]
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    break relaying
                }
                if count == 0 {
                    // End of stream from this side: pass it on, keep relaying the other way.
                    sending[side] = false
                    _ = shutdown(to, Int32(SHUT_WR))
                    continue
                }
                if !Self.sendAll(buffer, count: count, to: to) { break relaying }
            }
        }
        state.withLock { _ = $0.pairs.removeValue(forKey: id) }
        Glibc.close(pair.client)
        Glibc.close(pair.server)
    }

    private static func sendAll(_ buffer: [UInt8], count: Int, to fd: Int32) -> Bool {
        var offset = 0
        while offset < count {
            let sent = buffer.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }
}
