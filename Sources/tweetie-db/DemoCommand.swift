import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

// DemoCommand, with StopRequest: the private flag that tells a first Ctrl-C or SIGTERM from a second.

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the live list timeline and render its sections as changesets arrive.",
        discussion: """
            The list timeline view model observes the database while a fetcher stores what the source returns; every changeset is applied to the previous sections and checked against the new sections. On a terminal the timeline is a live screen: section headers and rows redrawn in place at the terminal's size, inserted rows marked +, modified ~, moved >, and a status line with the fetches, the last changeset and the rows; the terminal is restored at the end, on an error and on Ctrl-C or SIGTERM. Piped, with TERM=dumb, or with --log, it prints a log instead: one line per fetch and per changeset, and a line per inserted or modified row. Ends after --ticks fetches or on Ctrl-C (a second Ctrl-C quits at once), then prints a summary.
            """)

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var source: SourceOptions

    @Option(help: "How many fetches to run before stopping.")
    var ticks: Int = 12

    @Option(help: "Seconds between fetches.")
    var interval: Double = 1.0

    @Flag(name: [.customLong("log"), .customLong("plain")], help: "Print the log (one line per fetch and changeset) instead of the live screen, even on a terminal.")
    var log = false

    func validate() throws {
        try source.validate(simulatedFlag: nil)
        guard ticks > 0 else { throw ValidationError("--ticks must be positive.") }
        guard interval >= 0, interval <= 3600 else { throw ValidationError("--interval must be between 0 and 3600 seconds.") }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try database.openForWriting()
            defer { store.close() }
            let api: any TwitterAPI
            var list = source.listIdentifier
            var reachability: any Reachability = AlwaysReachable()
            var sourceName: String
            if let apiCache = source.apiCache {
                api = APICacheSource(directory: URL(fileURLWithPath: apiCache))
                sourceName = "API cache \(apiCache)"
            } else if source.live {
                api = TwitterHTTPClient(credentials: TimelineSync.credentialsFromEnvironment()!)
                reachability = InterfaceReachability()
                sourceName = "live Twitter API"
            } else {
                let simulated = SimulatedTwitterSource(seed: source.seed)
                list = simulated.list
                api = simulated
                sourceName = "simulated source (seed \(source.seed))"
            }
            let demo = TimelineDemo(list: list, api: api, store: store, reachability: reachability)
            let title = "\(list.key) — \(sourceName) — \(store.path)"
            let environment = ProcessInfo.processInfo.environment["TERM"]
            let screen = !log && Terminal.isTerminal(STDOUT_FILENO) && environment != "dumb" ? DemoScreen(title: title, ticks: ticks) : nil
            let renderer = DemoRenderer(screen: screen)
            let session = Task { try await demo.run(ticks: ticks, interval: .milliseconds(Int(interval * 1000))) }
            // Ctrl-C or SIGTERM stops the session early; the summary still prints. A second one
            // quits at once, restoring the terminal first.
            let stopRequested = StopRequest()
            let signals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    if stopRequested.again() {
                        screen?.stop()
                        _exit(128 + number)
                    }
                    session.cancel()
                }
                source.resume()
                return source
            }
            // A dispatch source must be resumed before it is released: make this one only when used.
            let resize = screen.map { screen in
                signal(SIGWINCH, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
                source.setEventHandler { screen.redraw() }
                source.resume()
                return source
            }
            defer {
                for source in signals + (resize.map { [$0] } ?? []) { source.cancel() }
                screen?.stop()
            }
            screen?.start()
            let rendering = Task { for await event in demo.events { renderer.render(event) } }
            let summary = try await session.value
            _ = await rendering.value
            renderer.finish(summary)
            if summary.inexactChangesets > 0 {
                throw CLIError("\(summary.inexactChangesets) changeset(s) did not reproduce the view model's sections")
            }
        }
    }
}

/// Whether a stop was already asked for (by Ctrl-C or SIGTERM).
private final class StopRequest: Sendable {
    private let requested = Mutex(false)

    /// Records a request; true when one came before.
    func again() -> Bool {
        requested.withLock { seen in
            defer { seen = true }
            return seen
        }
    }
}
