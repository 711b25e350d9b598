import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// One connection to the server, opened from a ``PostgresURL``, with every failure turned into a
/// ``ReplicationError`` that says which server and why.
struct PostgresLink: Sendable {
    let connection: PostgresConnection
    let url: PostgresURL
    let logger: Logger
    /// How long one statement may take before the connection is given up (closed): a server that
    /// stopped answering, or a connection cut without the kernel noticing, would otherwise hold a
    /// replicator forever.
    let timeout: Duration

    static func connect(_ url: PostgresURL, logger: Logger, timeout: Duration = .seconds(60)) async throws -> PostgresLink {
        var configuration: PostgresConnection.Configuration
        if let socket = url.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                  database: url.database, tls: try tls(for: url))
        }
        configuration.options.connectTimeout = .seconds(Int64(url.connectTimeout.map { max($0, 1) } ?? 10))
        let startup = configuration
        do {
            // The whole start-up, not only the TCP connect: a server going down can accept a
            // connection and never answer its start-up message.
            let attempt = try await withDeadline(timeout) {
                try await PostgresConnection.connect(configuration: startup, id: Int.random(in: 1...Int.max), logger: logger)
            }
            guard let connection = attempt else {
                throw ReplicationError(.connection, "PostgreSQL at \(url) did not complete the connection's start-up within \(timeout).")
            }
            return PostgresLink(connection: connection, url: url, logger: logger, timeout: timeout)
        } catch {
            throw describe(error, url: url, connecting: true)
        }
    }

    static func tls(for url: PostgresURL) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return .disable
        case .allow, .prefer:
            tls.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: tls))
        case .require:
            tls.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: tls))
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        case .verifyFull:
            tls.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: tls))
        }
    }

    /// A sentence for `error`, naming the server.
    static func describe(_ error: any Error, url: PostgresURL, connecting: Bool = false) -> ReplicationError {
        if let error = error as? ReplicationError { return error }
        guard let error = error as? PSQLError else {
            return ReplicationError(.connection, "PostgreSQL at \(url) could not be reached: \(error).")
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            let message = info[.message] ?? "an error"
            if state == "28P01" || state == "28000" {
                return ReplicationError(.connection, "PostgreSQL at \(url) refused the login of \(url.user): \(message).")
            }
            if state == "3D000" {
                return ReplicationError(.connection, "PostgreSQL at \(url) has no database \(url.database): \(message).")
            }
            let detail = info[.detail].map { " (\($0))" } ?? ""
            return ReplicationError(connecting ? .connection : .server, "PostgreSQL at \(url) answered: \(message)\(detail) [\(state)].")
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return ReplicationError(.connection, "PostgreSQL at \(url) asks for a password for \(url.user), and none was given (in the URL, PGPASSWORD or ~/.pgpass).")
        case .sslUnsupported:
            return ReplicationError(.connection, "PostgreSQL at \(url) does not support TLS, which the URL's sslmode requires.")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return ReplicationError(.connection, "The connection to PostgreSQL at \(url) was closed\(error.underlying.map { ": \($0)" } ?? "").")
        default:
            let why = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return ReplicationError(.connection, "PostgreSQL at \(url) could not be reached: \(why).")
        }
    }

    /// Runs `query` and collects its rows, within ``timeout``.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        guard !connection.isClosed else {
            throw ReplicationError(.connection, "The connection to PostgreSQL at \(url) was closed.")
        }
        let connection = connection, logger = logger, url = url, timeout = timeout
        do {
            let rows = try await withDeadline(timeout) {
                var rows: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
                return rows
            }
            guard let rows else {
                // Closing fails the statement still running, if the channel can still tell.
                Task { try? await connection.close() }
                throw ReplicationError(.connection, "PostgreSQL at \(url) did not answer within \(timeout); the connection was closed.")
            }
            return rows
        } catch {
            throw Self.describe(error, url: url)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ begin: PostgresQuery = "BEGIN", _ body: (PostgresLink) async throws -> T) async throws -> T {
        try await rows(begin)
        do {
            let value = try await body(self)
            try await rows("COMMIT")
            return value
        } catch {
            // After a failed statement the connection may be dead without knowing it (a statement
            // cut mid-flight leaves postgres-nio's channel open): a rollback then waits at most
            // the timeout; closing the connection rolls back just as well.
            if (error as? ReplicationError)?.code == .connection {
                await close()
            } else if (try? await rows("ROLLBACK")) == nil {
                await close()
            }
            throw error
        }
    }

    /// Connects, runs `body`, and closes the connection whether it returned or threw.
    static func with<T: Sendable>(_ url: PostgresURL, logger: Logger, timeout: Duration = .seconds(60),
                                  _ body: (PostgresLink) async throws -> T) async throws -> T {
        let link = try await connect(url, logger: logger, timeout: timeout)
        do {
            let value = try await body(link)
            await link.close()
            return value
        } catch {
            await link.close()
            throw error
        }
    }

    /// Closes the connection, waiting for it at most a second.
    func close() async {
        let connection = connection
        _ = try? await withDeadline(.seconds(1)) { try await connection.close() }
    }
}
