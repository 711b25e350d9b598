import Foundation

/// A PostgreSQL connection URL in libpq's syntax:
/// `postgres[ql]://[user[:password]@][host][:port][/database][?param=value&…]`.
///
/// The parameters read are `sslmode` (`disable`, `allow`, `prefer` — libpq's default —,
/// `require`, `verify-ca`, `verify-full`), `host` (a directory holding the server's Unix socket,
/// or a host name), `port`, `user`, `password`, `dbname`, `application_name` and
/// `connect_timeout`; any other parameter is an error, not silently ignored. Percent-escapes
/// are decoded in every part. Without a password in the URL, `PGPASSWORD` is used, then the
/// password file (`PGPASSFILE`, else `~/.pgpass`, with libpq's `*` wildcards and `\` escapes; a
/// file that group or others can read is ignored, as libpq does).
///
/// ```swift
/// let url = try PostgresURL("postgres://app:secret@127.0.0.1:5432/tweetie?sslmode=require")
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable, allow, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    /// A host name or address, or a directory holding the server's Unix socket (it starts with `/`).
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode
    public var applicationName: String?
    public var connectTimeout: Int?

    /// The Unix socket's path when ``host`` is a directory.
    public var unixSocketPath: String? {
        host.hasPrefix("/") ? host + "/.s.PGSQL.\(port)" : nil
    }

    /// Parses `text`; `environment` supplies `PGUSER`, `PGPASSWORD`, `PGPASSFILE` and `HOME`.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func bad(_ why: String) -> ReplicationError {
            ReplicationError(.badURL, "The PostgreSQL URL \(PostgresURL.redacted(text)) \(why).")
        }
        let schemes = ["postgresql://", "postgres://"]
        guard let scheme = schemes.first(where: { text.hasPrefix($0) }) else {
            throw bad("does not start with postgres:// or postgresql://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        func decode(_ part: Substring, _ what: String) throws -> String {
            guard let value = String(part).removingPercentEncoding else { throw bad("has a bad percent-escape in its \(what)") }
            return value
        }
        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try decode(userInfo[..<colon], "user name")
                password = try decode(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try decode(userInfo, "user name")
            }
        }
        var host = "localhost"
        var port = 5432
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("has an unclosed [ in its host") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let value = Int(rest.dropFirst()), (1...65535).contains(value) else { throw bad("has a port that is not a number from 1 to 65535") }
                port = value
            } else if !rest.isEmpty {
                throw bad("has text after its host")
            }
        } else {
            if rest.contains(",") { throw bad("names several hosts, which tweetie-replicate does not support") }
            if let colon = rest.firstIndex(of: ":") {
                guard let value = Int(rest[rest.index(after: colon)...]), (1...65535).contains(value) else {
                    throw bad("has a port that is not a number from 1 to 65535")
                }
                port = value
                rest = rest[..<colon]
            }
            if !rest.isEmpty { host = try decode(rest, "host") }
        }
        var database = path.isEmpty ? nil : try decode(path, "database name")
        var tls = TLSMode.prefer
        var applicationName: String?
        var connectTimeout: Int?
        if !query.isEmpty {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else { throw bad("has the parameter \"\(pair)\" without a value") }
                let name = try decode(pair[..<equals], "parameters")
                let value = try decode(pair[pair.index(after: equals)...], "parameters")
                switch name {
                case "sslmode":
                    guard let mode = TLSMode(rawValue: value) else {
                        throw bad("has sslmode=\(value); the modes are \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    tls = mode
                case "host": host = value
                case "port":
                    guard let value = Int(value), (1...65535).contains(value) else { throw bad("has a port that is not a number from 1 to 65535") }
                    port = value
                case "user": user = value
                case "password": password = value
                case "dbname": database = value
                case "application_name": applicationName = value
                case "connect_timeout":
                    guard let seconds = Int(value), seconds >= 0 else { throw bad("has a connect_timeout that is not a whole number of seconds") }
                    connectTimeout = seconds
                default:
                    throw bad("has the parameter \"\(name)\", which tweetie-replicate does not support")
                }
            }
        }
        let resolvedUser = user ?? environment["PGUSER"] ?? ProcessInfo.processInfo.userName
        guard !resolvedUser.isEmpty else { throw bad("names no user, and PGUSER is not set") }
        self.user = resolvedUser
        self.host = host
        self.port = port
        self.database = database ?? resolvedUser
        self.tls = tls
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
        self.password = password ?? environment["PGPASSWORD"]
            ?? PostgresURL.passwordFromFile(host: host, port: port, database: self.database, user: resolvedUser, environment: environment)
    }

    /// The URL without its password.
    public var description: String {
        let hostPart = host.hasPrefix("/") ? "" : (host.contains(":") ? "[\(host)]" : host)
        var text = "postgres://\(user)@\(hostPart):\(port)/\(database)"
        if host.hasPrefix("/") { text += "?host=\(host)" }
        return text
    }

    /// `text` with any password replaced by `***`, for error messages.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        var result = text
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            result.replaceSubrange(authority.index(after: colon)..<at, with: "***")
        }
        if let range = result.range(of: "password=") {
            let end = result[range.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return result
    }

    /// The password file's entry for this connection, as libpq reads it.
    static func passwordFromFile(host: String, port: Int, database: String, user: String, environment: [String: String]) -> String? {
        let path = environment["PGPASSFILE"] ?? (environment["HOME"].map { $0 + "/.pgpass" })
        guard let path else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let hostName = host.hasPrefix("/") ? "localhost" : host
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            var fields: [String] = []
            var field = ""
            var escaped = false
            for character in line {
                if escaped { field.append(character); escaped = false; continue }
                if character == "\\" { escaped = true; continue }
                if character == ":" && fields.count < 4 { fields.append(field); field = ""; continue }
                field.append(character)
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [hostName, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
