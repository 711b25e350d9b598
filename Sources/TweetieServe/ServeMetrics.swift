import Prometheus

/// The server's metrics, served by `GET /metrics` in Prometheus text format.
///
/// ```swift
/// let metrics = ServeMetrics()
/// metrics.clients.increment()
/// print(metrics.text())
/// ```
public final class ServeMetrics: Sendable {
    /// The registry the metrics live in.
    let registry = PrometheusCollectorRegistry()
    /// SSE clients connected now.
    let clients: Gauge
    /// Feeds observed now (one observation each, however many clients).
    let feeds: Gauge
    /// Feed messages the observations delivered (each encoded once).
    let messages: Counter
    /// Frames written to clients (messages times clients, keep-alives excluded).
    let deliveries: Counter
    /// Clients that fell more than the queue bound behind and were sent a `reset` snapshot.
    let slowClientResets: Counter
    /// SSE requests refused because `--max-clients` were connected.
    let refusals: Counter
    /// Connections open now (every kind), at most ``TweetieServer/Configuration/connectionLimit``.
    let connections: Gauge
    /// Times accepting a connection failed for want of descriptors or memory and was paused.
    let acceptPauses: Counter
    /// From a message's arrival from the store to its write to one client.
    let fanOutLatency: DurationHistogram

    /// Registers the metrics in a new registry.
    public init() {
        clients = registry.makeGauge(descriptor: Self.named("tweetie_serve_clients", "SSE clients connected"))
        feeds = registry.makeGauge(descriptor: Self.named("tweetie_serve_feeds", "Feeds observed (one observation each)"))
        messages = registry.makeCounter(descriptor: Self.named("tweetie_serve_messages_total", "Feed messages delivered by the store, each encoded once"))
        deliveries = registry.makeCounter(descriptor: Self.named("tweetie_serve_deliveries_total", "Feed messages written to clients"))
        slowClientResets = registry.makeCounter(descriptor: Self.named("tweetie_serve_slow_client_resets_total", "Clients past the queue bound, sent a reset snapshot"))
        refusals = registry.makeCounter(descriptor: Self.named("tweetie_serve_refused_total", "SSE requests refused past --max-clients"))
        connections = registry.makeGauge(descriptor: Self.named("tweetie_serve_connections", "Connections open (every kind)"))
        acceptPauses = registry.makeCounter(descriptor: Self.named("tweetie_serve_accept_pauses_total", "Accepts that failed for want of descriptors or memory, each followed by a pause"))
        fanOutLatency = registry.makeDurationHistogram(
            descriptor: Self.named("tweetie_serve_fan_out_seconds", "From a message's arrival from the store to its write to one client"),
            buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .seconds(1), .seconds(5)])
    }

    /// The descriptor of the metric named `name` exactly (no namespace or unit parts added).
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The metrics in Prometheus text format.
    ///
    /// ```swift
    /// print(metrics.text())
    /// ```
    public func text() -> String { registry.emitToString() }

    /// The current value of the metric `name` (a counter or gauge without labels).
    ///
    /// ```swift
    /// print(metrics.value(of: "tweetie_serve_clients") ?? 0)
    /// ```
    public func value(of name: String) -> Double? {
        for line in text().split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}
