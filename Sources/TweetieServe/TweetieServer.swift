import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TweetieSync

// TweetieServer, with StreamsService: the private service that runs its keep-alives and ends its
// streams on shutdown, a part of the server that nothing else starts.

/// The HTTP server of `tweetie-serve`: the page, the feeds as JSON snapshots and Server-Sent Events,
/// health and metrics. Read-only: no endpoint writes the database.
///
/// ```swift
/// let server = TweetieServer(store: store, configuration: .init(port: 0))
/// try await server.run { port in print("listening on \(port)") }
/// ```
public final class TweetieServer: Sendable {
    /// What the server listens on and how it bounds its clients.
    public struct Configuration: Sendable {
        /// The address to bind (loopback unless told otherwise).
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (``TweetieServer/run(onListening:)`` tells which).
        public var port = 8080
        /// The most SSE clients at once; past it, `503` with `Retry-After`.
        public var maxClients = 1024
        /// The most connections at once, of every kind (event streams, snapshots, the page, idle
        /// keep-alive connections); past it the server accepts no more until one closes (they wait
        /// in the listen backlog). `nil`: ``connectionLimit``'s default, from the descriptor limit.
        public var maxConnections: Int?
        /// The most messages queued for one SSE client; a client further behind gets a `reset`
        /// snapshot once it reads again.
        public var clientQueueBound = 64
        /// The change messages each feed keeps for clients that resume.
        public var historyBound = 1024
        /// The most distinct feeds observed at once (each `/feeds/person/NAME` is one).
        public var maxFeeds = 256
        /// The most windows (distinct `limit`s) of one feed observed at once. Each window is an
        /// observation of its own, which re-reads its rows on every commit that touches the feed's
        /// collection, so without this bound requests for many limits would multiply that work
        /// (and the memory of feeds whose windows cannot hold only their rows) by their number.
        /// Past it, an unused window stops first; with none unused, `503`.
        public var maxWindowsPerFeed = 4
        /// The list the feeds show.
        public var list = ListIdentifier.rxSwift
        /// The reference time of relative times, fixed for the server's lifetime.
        public var now = Date()
        /// How often an idle SSE client gets a keep-alive comment.
        public var keepAliveInterval: Duration = .seconds(15)
        /// How long a connection may stay idle between requests (or while sending its request head).
        public var idleTimeout: Duration = .seconds(30)
        /// How long a feed without clients stays observed (for resumes and snapshot requests).
        public var feedLinger: Duration = .seconds(30)
        /// The largest request head (all header fields together), in bytes.
        public var maxRequestHeadSize = 16 * 1024

        /// The descriptors a server keeps for itself beside its connections: the database, the event
        /// loops, the listener, standard streams.
        public static let reservedDescriptors = 64

        /// The most connections at once: ``maxConnections``, or by default the descriptor limit
        /// (`RLIMIT_NOFILE`'s soft limit, at the time of asking) less ``reservedDescriptors``, so that
        /// connections alone never exhaust the descriptors.
        ///
        /// ```swift
        /// print(TweetieServer.Configuration().connectionLimit)  // 1216 under `ulimit -n 1280`
        /// ```
        public var connectionLimit: Int {
            maxConnections ?? max(1, Int(clamping: FileDescriptorLimit.current.soft) - Self.reservedDescriptors)
        }

        /// The defaults: 127.0.0.1:8080, 1,024 clients, queues of 64 messages.
        ///
        /// ```swift
        /// var configuration = TweetieServer.Configuration()
        /// configuration.port = 0
        /// ```
        public init() {}
    }

    /// The configuration.
    public let configuration: Configuration
    /// The metrics served by `GET /metrics`.
    public let metrics = ServeMetrics()
    let store: Store
    let hubs: FeedHubs
    let clientCount = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    private let serviceGroup = Mutex<ServiceGroup?>(nil)
    /// The listening channel, once it listens.
    private let listener = Mutex<(any Channel)?>(nil)
    private let logger: Logger

    /// A server for the feeds of `store`.
    ///
    /// ```swift
    /// let server = TweetieServer(store: store, configuration: TweetieServer.Configuration())
    /// ```
    public init(store: Store, configuration: Configuration, logger: Logger = Logger(label: "tweetie-serve")) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        hubs = FeedHubs(configuration: configuration, store: store, metrics: metrics)
    }

    /// Serves until ``stop()`` or, when `handlingSignals`, SIGINT or SIGTERM: then it stops
    /// accepting connections, ends every stream, and returns.
    ///
    /// ```swift
    /// try await server.run(handlingSignals: true) { port in print("http://127.0.0.1:\(port)/") }
    /// ```
    public func run(handlingSignals: Bool = false, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [EventStreamCloser(), HTTP10Framing.Installer()],
            idleTimeout: TimeAmount(configuration.idleTimeout),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: configuration.maxRequestHeadSize,
                                            maxHeaderListSize: configuration.maxRequestHeadSize, maxHeaderFieldCount: 100))
        let app = Application(
            responder: ServeResponder(server: self),
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { [self, metrics, logger, configuration] channel in
                // On the listener, before anything reads from it (see ConnectionGate).
                let limit = configuration.connectionLimit
                do {
                    try await channel.eventLoop.submit {
                        let gate = ConnectionGate(limit: limit, metrics: metrics, logger: logger)
                        try channel.pipeline.syncOperations.addHandler(gate, position: .first)
                    }.get()
                } catch {
                    logger.error("the listener takes no connection limit: \(error)")
                }
                listener.withLock { $0 = channel }
                await onListening(channel.localAddress?.port ?? 0)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [app, StreamsService(server: self)],
            gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
            logger: logger))
        serviceGroup.withLock { $0 = group }
        if stopping.load(ordering: .acquiring) { return }
        try await group.run()
    }

    /// Stops the server: no new streams, every stream ended, the listener closed; ``run(handlingSignals:onListening:)`` returns.
    ///
    /// ```swift
    /// await server.stop()
    /// ```
    public func stop() async {
        stopping.store(true, ordering: .releasing)
        let group = serviceGroup.withLock { $0 }
        await group?.triggerGracefulShutdown()
    }

    /// How long a graceful shutdown waits for the connections to end their responses before it
    /// closes them: a client that reads nothing would hold it back forever.
    static let shutdownGrace: Duration = .seconds(5)

    /// Ends every stream, and has every connection closed after ``shutdownGrace`` (graceful
    /// shutdown begins with this).
    func endStreams() {
        stopping.store(true, ordering: .releasing)
        hubs.closeAll()
        listener.withLock { $0 }?.triggerUserOutboundEvent(ConnectionGate.CloseAll(grace: TimeAmount(Self.shutdownGrace)), promise: nil)
    }
}

/// Sends keep-alives and stops unused feeds while the server runs; on graceful shutdown (it is the
/// last service, so the first told) it ends every stream, so that the HTTP server can drain.
private struct StreamsService: Service {
    let server: TweetieServer

    func run() async throws {
        let interval = server.configuration.keepAliveInterval
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                server.hubs.maintain(idle: server.configuration.feedLinger)
            }
        }
        server.endStreams()
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
