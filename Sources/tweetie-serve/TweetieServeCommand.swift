import ArgumentParser
import Foundation
import TweetieServe
import TweetieSync

@main
struct TweetieServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-serve",
        abstract: "Serve the timeline live to browsers: the page, the feeds as JSON snapshots and Server-Sent Events.",
        discussion: """
            Open http://HOST:PORT/ for the page. GET /feeds/list, /feeds/person/{username} and /feeds/people (?sections=day|none&moves=1|0&limit=N) answer, for the feed's window of its first N rows (default 100, at most 10000: the newest tweets of a timeline; ask again with a larger limit to load older ones), with its JSON snapshot (ETag from its position; If-None-Match gives 304) or, with Accept: text/event-stream, stream it as Server-Sent Events: event snapshot, change or reset, id the message's position (SEQUENCE.COMMITID), data the message of feed format version 4 (schemas/tweetie-feed.schema.json), and a keep-alive comment every --keep-alive seconds (15). Last-Event-ID or ?after=POSITION resumes: the changes after that message, or a reset snapshot when they cannot be told (a position from before a restore of the database always gets the reset). GET /healthz; GET /metrics (Prometheus text).

            Each distinct feed is observed once however many clients follow it, and each message is encoded once. A client more than --client-queue messages behind loses its queue and gets one reset snapshot when it reads again. The server only reads the database; it stops on SIGINT or SIGTERM (ending every stream) and exits 0.
            """)

    @Option(name: .customLong("db"), help: ArgumentHelp("The database directory.", discussion: "Defaults to $TWEETIE_DB, else $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db). It must exist: run tweetie-db sync first.", valueName: "path"))
    var path: String?

    @Option(help: "The address to listen on. Anything but loopback exposes the feeds to the network.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port; the line on stdout says which).")
    var port = 8080

    @Option(name: .customLong("max-clients"), help: "The most Server-Sent Events clients at once; past it, 503 with Retry-After.")
    var maxClients = 1024

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("The most connections at once, of every kind (streams, snapshots, the page, idle ones); past it, new connections wait until one closes.", discussion: "Default: the file-descriptor limit less 64 (the limit is raised to --max-clients + 256 when it can be).", valueName: "n"))
    var maxConnections: Int?

    @Option(name: .customLong("client-queue"), help: "The most messages queued for one client before it is sent a reset snapshot instead.")
    var clientQueue = 64

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds a connection may stay idle between requests, or while sending its request head, before it is closed.", discussion: "An event stream is not idle: it stays open while the client reads.", valueName: "seconds"))
    var idleTimeout = 30.0

    @Option(name: .customLong("keep-alive"), help: ArgumentHelp("Seconds between keep-alive comments on an event stream.", valueName: "seconds"))
    var keepAlive = 15.0

    @Option(help: "The list the feeds show, as OWNER/SLUG.")
    var list = ListIdentifier.rxSwift.key

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The reference time for relative times and day titles (default: when the server starts); fixed while it runs.",
                               discussion: "Forms, as tweetie-db feed --now takes them: \(DateArgument.forms).", valueName: "date"))
    var now: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port).") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1, got \(maxClients).") }
        if let maxConnections {
            guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, got \(maxConnections).") }
            guard maxClients <= maxConnections else {
                throw ValidationError("--max-clients \(maxClients) is more than --max-connections \(maxConnections): each client is a connection.")
            }
        }
        guard clientQueue >= 1 else { throw ValidationError("--client-queue must be at least 1, got \(clientQueue).") }
        guard idleTimeout > 0, idleTimeout <= 86_400 else { throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds, got \(idleTimeout).") }
        guard keepAlive > 0, keepAlive <= 86_400 else { throw ValidationError("--keep-alive must be more than 0 and at most 86400 seconds, got \(keepAlive).") }
        if let now, DateArgument.parse(now) == nil { throw ValidationError(DateArgument.problem(option: "--now", value: now)) }
        _ = try listIdentifier()
    }

    func run() async throws {
        var configuration = TweetieServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.maxClients = maxClients
        configuration.maxConnections = maxConnections
        configuration.clientQueueBound = clientQueue
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.keepAliveInterval = .milliseconds(Int64(keepAlive * 1000))
        configuration.list = try listIdentifier()
        if let now { configuration.now = DateArgument.parse(now)! }
        let path = self.path ?? TweetieDatabase.defaultPath()
        let store: Store
        do {
            let (opened, readOnlyBecause) = try TweetieDatabase.openExisting(at: path)
            if let readOnlyBecause { FileHandle.standardError.write(Data("tweetie-serve: note: opened \(path) read-only (\(readOnlyBecause))\n".utf8)) }
            store = opened
        } catch let error as TweetieDatabase.NotAnExistingDatabase {
            FileHandle.standardError.write(Data("tweetie-serve: \(error)\n".utf8))
            throw ExitCode.failure
        } catch {
            FileHandle.standardError.write(Data("tweetie-serve: cannot open the database at \(path): \(error)\n".utf8))
            throw ExitCode.failure
        }
        defer { store.close() }
        // Each connection holds a descriptor: room for --max-clients streams and 192 other connections
        // (page and snapshot requests), or for --max-connections, besides the server's own.
        let reserved = UInt64(TweetieServer.Configuration.reservedDescriptors)
        do {
            try FileDescriptorLimit.raise(toAtLeast: max(UInt64(maxClients) + 256, UInt64(maxConnections ?? 0) + reserved))
        } catch {
            warn("\(error)")
        }
        // Fixed now, from the limit just raised: what the listening line says is what the server keeps.
        let connections = configuration.connectionLimit
        configuration.maxConnections = connections
        if maxClients > connections {
            warn("fewer than --max-clients \(maxClients) clients can connect: at most \(connections) connections (--max-connections)")
        }
        let descriptors = FileDescriptorLimit.current.soft
        if let maxConnections, UInt64(maxConnections) + reserved > descriptors {
            warn("--max-connections \(maxConnections) is more than \(descriptors) file descriptors allow (\(reserved) are the server's own): past about \(descriptors - min(descriptors, reserved)) connections, accepting fails and pauses until some close")
        }
        let server = TweetieServer(store: store, configuration: configuration)
        try await server.run(handlingSignals: true) { port in
            print("tweetie-serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (database \(path); at most \(connections) connections)")
            fflush(nil)
        }
        print("tweetie-serve: stopped")
    }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("tweetie-serve: warning: \(message)\n".utf8))
    }

    private func listIdentifier() throws -> ListIdentifier {
        do {
            return try ListIdentifier(parsing: list)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
