import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TweetieTestSupport

/// The built executables (`tweetie-db`, `tweetie-serve`) next to the test bundle.
enum Executables {
    static func url(_ name: String) -> URL { ChildProcess.builtProduct(name) }

    /// Runs `tweetie-db arguments…` to completion; returns its status and stdout.
    @discardableResult
    static func tweetieDB(_ arguments: [String]) throws -> (status: Int32, stdout: Data) {
        let result = try ChildProcess.run(url("tweetie-db"), arguments, environment: ["TWEETIE_DB": nil])
        return (result.status, result.stdout)
    }
}

/// A database directory under the temporary directory (created by the first command that
/// writes), removed by ``remove()``.
struct ScratchDatabase {
    private let directory = TemporaryDirectory("serve", create: false)
    var path: String { directory.path }
    func remove() { directory.remove() }

    /// The change log's last sequence, from `tweetie-db stats`.
    func lastSequence() throws -> UInt64 {
        let stats = try JSONSerialization.jsonObject(with: try Executables.tweetieDB(["stats", "--db", path, "--format", "json"]).stdout) as? [String: Any]
        return (stats?["changeLogLast"] as? NSNumber)?.uint64Value ?? 0
    }
}

/// A `tweetie-serve` process on an ephemeral loopback port.
final class ServerProcess: @unchecked Sendable {
    let process = SpawnedProcess()
    let port: Int
    private let output: FileHandle

    /// Starts `tweetie-serve --port 0 arguments…` and waits for the line saying its port; with
    /// `openFiles`, under that `RLIMIT_NOFILE` (soft and hard, through `prlimit`), and with `log`,
    /// its standard error written to that file.
    init(_ arguments: [String], openFiles: Int? = nil, log: String? = nil) throws {
        let serve = ["--port", "0"] + arguments
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(openFiles):\(openFiles)", Executables.url("tweetie-serve").path] + serve
        } else {
            process.executableURL = Executables.url("tweetie-serve")
            process.arguments = serve
        }
        let out = Pipe()
        process.standardOutput = out
        if let log {
            guard FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log) else {
                throw TestFailure("cannot create \(log)")
            }
            process.standardError = handle
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        output = out.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n") {
            guard Date() < deadline else { process.terminate(); throw TestFailure("tweetie-serve did not say its port") }
            let chunk = output.availableData
            if chunk.isEmpty { throw TestFailure("tweetie-serve ended before listening") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
              let port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast()) else {
            throw TestFailure("no port in '\(text)'")
        }
        self.port = port
    }

    /// The CPU time the process used so far (user and system, from `/proc/PID/stat`), in seconds.
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // After the command name (in parentheses): state, then utime and stime as fields 12 and 13.
        guard let close = stat.lastIndex(of: ")") else { throw TestFailure("no command name in '\(stat)'") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestFailure("no CPU times in '\(stat)'")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The process's resident set (`VmRSS` of `/proc/PID/status`), in bytes.
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ")[1]) else { throw TestFailure("no VmRSS in '\(status)'") }
        return kilobytes * 1024
    }

    /// Sends `signal` and waits (at most `timeout` seconds) for the exit status.
    func stop(signal: Int32 = SIGTERM, timeout: Double = 30) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { kill(process.processIdentifier, SIGKILL); return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A blocking TCP connection to a loopback port, for exact control of what the test sends.
final class TestSocket {
    let fd: Int32
    private(set) var buffer = [UInt8]()

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw TestFailure("connect to port \(port): errno \(errno)") }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestFailure("send: errno \(errno)") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Reads more bytes into ``buffer``; false at end of stream. Throws past `deadline`.
    func fill(until deadline: Date) throws -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&pfd, 1, 50) == 0 {
            if Date() > deadline { throw TestFailure("timed out waiting for the server") }
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    func consume(_ count: Int) -> [UInt8] {
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Reads through the next `\r\n\r\n`: the response head.
    func readHead(until deadline: Date) throws -> (status: Int, headers: [String: String]) {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: consume(end + 4), as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
                let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return (status, headers)
            }
            guard try fill(until: deadline) else { throw TestFailure("the connection closed before a response head") }
        }
    }

    func find(_ pattern: [UInt8], from start: Int = 0) -> Int? {
        guard buffer.count >= pattern.count + start else { return nil }
        return (start...(buffer.count - pattern.count)).first { buffer[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}

/// A response read whole (`Connection: close`).
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    /// `GET path` (or another method) with extra header lines.
    static func get(port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 60) throws -> HTTPReply {
        let socket = try TestSocket(port: port)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try socket.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(extra)\r\n")
        let deadline = Date().addingTimeInterval(timeout)
        let (status, headers) = try socket.readHead(until: deadline)
        while try socket.fill(until: deadline) {}
        var body = socket.buffer
        if headers["transfer-encoding"] == "chunked" { body = ChunkedDecoder.decodeAll(body) }
        return HTTPReply(status: status, headers: headers, body: Data(body))
    }
}

/// Decodes `Transfer-Encoding: chunked` bodies.
enum ChunkedDecoder {
    /// Decodes the complete chunks at the start of `bytes`; returns the data and the bytes used.
    static func decode(_ bytes: [UInt8]) -> (data: [UInt8], used: Int, ended: Bool) {
        var data = [UInt8](), index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText, radix: 16) else { break }
            let start = lineEnd + 2
            guard bytes.count >= start + size + 2 else { break }
            if size == 0 { return (data, start + 2, true) }
            data += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return (data, index, false)
    }

    static func decodeAll(_ bytes: [UInt8]) -> [UInt8] { decode(bytes).data }
}

/// One Server-Sent Event.
struct ServerSentEvent {
    var name: String
    var id: String?
    var data: String
}

/// A Server-Sent Events stream from the server.
final class EventStream {
    let socket: TestSocket
    let head: (status: Int, headers: [String: String])
    private var body = [UInt8]()
    private var ended = false

    /// `GET path` with `Accept: text/event-stream` and extra header lines.
    init(port: Int, _ path: String, headers: [String: String] = [:], receiveBuffer: Int32? = nil) throws {
        socket = try TestSocket(port: port, receiveBuffer: receiveBuffer)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\(extra)\r\n")
        head = try socket.readHead(until: Date().addingTimeInterval(60))
    }

    /// The next event (comments skipped), or `nil` when the stream ended.
    func next(timeout: Double = 60) throws -> ServerSentEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = (0..<max(0, body.count - 1)).first(where: { body[$0] == 10 && body[$0 + 1] == 10 }) {
                let text = String(decoding: body[0..<end], as: UTF8.self)
                body.removeFirst(end + 2)
                var event = ServerSentEvent(name: "message", id: nil, data: "")
                var isComment = true
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { continue }
                    isComment = false
                    if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)) }
                }
                if isComment { continue }
                return event
            }
            if ended { return nil }
            let decoded = ChunkedDecoder.decode(socket.buffer)
            if decoded.used > 0 {
                _ = socket.consume(decoded.used)
                body += decoded.data
                ended = decoded.ended
                continue
            }
            if !(try socket.fill(until: deadline)) { ended = true }
        }
    }
}
