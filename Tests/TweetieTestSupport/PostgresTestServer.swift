import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL server of the tests that need a real one: `TWEETIE_POSTGRES_URL`. `make test`
/// starts a throwaway cluster (`Tests/Postgres/cluster`) when that is not set, exports its URL and
/// its directory (`TWEETIE_POSTGRES_CLUSTER`), and stops it after the tests.
///
/// ```swift
/// guard let server = try PostgresTestServer.require() else { return }
/// let database = try server.createDatabase()
/// defer { try? server.dropDatabase(url: database) }
/// #expect(try server.psql("SELECT 1 + 1", database: database) == "2")
/// ```
public struct PostgresTestServer: Sendable {
    /// The server's URL, `postgres://tweetie@127.0.0.1:PORT/tweetie` under `make test`.
    public let serverURL: String
    /// The directory of the cluster `make test` started (`TWEETIE_POSTGRES_CLUSTER`), which
    /// ``restart(mode:)`` needs; `nil` for a server the tests were handed.
    public let clusterDirectory: String?

    public init(serverURL: String, clusterDirectory: String? = nil) {
        self.serverURL = serverURL
        self.clusterDirectory = clusterDirectory
    }

    /// `TWEETIE_POSTGRES_URL`, when it is set and not empty.
    public static func url() -> String? {
        environment("TWEETIE_POSTGRES_URL")
    }

    /// The server, when `TWEETIE_POSTGRES_URL` is set. Without it: in CI (`CI` set) an error,
    /// never a skip; elsewhere `nil`, with a one-line message.
    public static func require() throws -> PostgresTestServer? {
        if let url = url() {
            return PostgresTestServer(serverURL: url, clusterDirectory: environment("TWEETIE_POSTGRES_CLUSTER"))
        }
        if environment("CI") != nil {
            throw PostgresTestError(
                "TWEETIE_POSTGRES_URL is not set: `make test` starts a temporary PostgreSQL cluster and sets it")
        }
        print("skipped: no PostgreSQL server (TWEETIE_POSTGRES_URL is not set; `make test` starts one)")
        return nil
    }

    /// The server's host (`127.0.0.1` under `make test`).
    public var host: String { URLComponents(string: serverURL)?.host ?? "127.0.0.1" }

    /// The server's TCP port (5432 when the URL has none).
    public var port: Int { URLComponents(string: serverURL)?.port ?? 5432 }

    /// Creates a fresh, empty database named `tweetie_t_<16 hex digits>` and returns its URL: the
    /// server's URL with the database replaced.
    public func createDatabase() throws -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        let name = "tweetie_t_" + String(repeating: "0", count: 16 - hex.count) + hex
        _ = try psql("CREATE DATABASE \(name)", database: serverURL)
        return try Self.url(serverURL, database: name)
    }

    /// Drops the database of `url` (made by ``createDatabase()``), even with sessions still
    /// connected to it (`WITH (FORCE)`); nothing when it is already gone.
    public func dropDatabase(url: String) throws {
        guard let name = Self.databaseName(of: url), name.hasPrefix("tweetie_t_"),
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw PostgresTestError("not a database of createDatabase(): \(url)")
        }
        _ = try psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", database: serverURL)
    }

    /// Runs `sql` with psql on the database of `url` (`-X -A -t -v ON_ERROR_STOP=1`: no psqlrc,
    /// unaligned, tuples only, stop at the first error) and returns its output, trimmed. Throws
    /// with psql's standard error when it fails.
    @discardableResult
    public func psql(_ sql: String, database url: String) throws -> String {
        let arguments = ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql, "-d", url]
        // A server that does not answer fails the test instead of hanging it.
        let result = try ChildProcess.run(URL(fileURLWithPath: Self.psqlPath), arguments,
                                          environment: ["PGCONNECT_TIMEOUT": "10"], timeout: 120)
        guard result.status == 0, result.signal == nil else {
            throw PostgresTestError("psql failed (status \(result.status)) running \(sql): "
                + result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Restarts the cluster `make test` started (`Tests/Postgres/cluster restart DIR MODE`), on
    /// the same port: `immediate` (a crash: no checkpoint, recovery at start) or `fast`. Every
    /// connection is cut. Throws when the server is not one `make test` started, or the restart failed.
    public func restart(mode: String = "immediate") throws {
        guard let clusterDirectory else {
            throw PostgresTestError("cannot restart the PostgreSQL server of TWEETIE_POSTGRES_URL: it was not "
                + "started by `make test` (TWEETIE_POSTGRES_CLUSTER is not set)")
        }
        let script = Repository.root.appendingPathComponent("Tests/Postgres/cluster")
        let result = try ChildProcess.run(script, ["restart", clusterDirectory, mode], timeout: 180)
        guard result.status == 0, result.signal == nil else {
            throw PostgresTestError("Tests/Postgres/cluster restart \(clusterDirectory) \(mode) failed (status "
                + "\(result.status)): " + result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// `url` with its database replaced by `database`.
    public static func url(_ url: String, database: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw PostgresTestError("not a URL: \(url)") }
        components.path = "/" + database
        guard let result = components.string else { throw PostgresTestError("not a URL: \(url)") }
        return result
    }

    /// `url` with its port replaced by `port` (to go through a ``TCPProxy``).
    public static func url(_ url: String, port: Int) throws -> String {
        guard var components = URLComponents(string: url) else { throw PostgresTestError("not a URL: \(url)") }
        components.port = port
        guard let result = components.string else { throw PostgresTestError("not a URL: \(url)") }
        return result
    }

    /// The database of `url`: its path without the leading slash.
    public static func databaseName(of url: String) -> String? {
        guard let path = URLComponents(string: url)?.path, path.count > 1 else { return nil }
        return String(path.dropFirst())
    }

    /// Debian's psql (`/usr/bin/psql`, postgresql-client's wrapper), else the newest server's.
    private static let psqlPath: String = {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") { return "/usr/bin/psql" }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let path = "/usr/lib/postgresql/\(version)/bin/psql"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return "/usr/bin/psql"
    }()

    private static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

/// Why a ``PostgresTestServer`` call failed: no server in CI, a psql error, a failed restart.
public struct PostgresTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
