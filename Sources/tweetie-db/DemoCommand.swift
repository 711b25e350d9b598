import ArgumentParser
import Dispatch
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the live list timeline and render its sections as changesets arrive.",
        discussion: "The list timeline view model observes the database while a fetcher stores what the source returns; every changeset is applied to the previous sections on screen (rows appear, update and disappear in place) and checked against the new sections. Ends after --ticks fetches or on Ctrl-C, then prints a summary. Without a terminal it prints plain lines.")

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var source: SourceOptions

    @Option(help: "How many fetches to run before stopping.")
    var ticks: Int = 12

    @Option(help: "Seconds between fetches.")
    var interval: Double = 1.0

    @Flag(help: "Print plain lines even on a terminal.")
    var plain = false

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
            let renderer = DemoRenderer(interactive: !plain && Terminal.isTerminal(STDOUT_FILENO), title: "\(list.key) — \(sourceName) — \(store.path)")
            let rendering = Task { for await event in demo.events { renderer.render(event) } }
            let session = Task { try await demo.run(ticks: ticks, interval: .milliseconds(Int(interval * 1000))) }
            // Ctrl-C stops the session early; the summary still prints.
            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            interrupt.setEventHandler { session.cancel() }
            interrupt.resume()
            defer { interrupt.cancel() }
            let summary = try await session.value
            _ = await rendering.value
            renderer.finish(summary)
            if summary.inexactChangesets > 0 {
                throw CLIError("\(summary.inexactChangesets) changeset(s) did not reproduce the view model's sections")
            }
        }
    }
}

/// Draws the demo: a live screen on a terminal, plain lines otherwise.
final class DemoRenderer: @unchecked Sendable {
    private let interactive: Bool
    private let title: String
    private var updates = 0
    private var lastFetch = ""

    init(interactive: Bool, title: String) {
        self.interactive = interactive
        self.title = title
    }

    func render(_ event: TimelineDemoEvent) {
        switch event {
        case .fetched(let tick, let r):
            lastFetch = "fetch \(tick + 1): \(r.received) received, \(r.inserted) new, \(r.modified) updated, \(r.deleted) deleted"
            if !interactive { Out.line(lastFetch) }
        case .failed(let tick, let message):
            lastFetch = "fetch \(tick + 1) failed: \(message)"
            if !interactive { Out.line(lastFetch) }
        case .update(let update):
            updates += 1
            interactive ? draw(update) : printLines(update)
        }
    }

    private func printLines(_ u: TimelineDemoUpdate) {
        let rows = u.sections.reduce(0) { $0 + $1.rows.count }
        if u.isInitial {
            Out.line("snapshot (sequence \(u.sequence)): \(u.sections.count) sections, \(rows) rows")
            return
        }
        Out.line("changeset (sequence \(u.sequence)): +\(u.insertedIds.count) ~\(u.modifiedIds.count) -\(u.deletedCount) >\(u.movedIds.count); \(u.sections.count) sections, \(rows) rows; \(u.appliedExactly ? "applied exactly" : "MISMATCH")")
        for section in u.sections {
            for row in section.rows where u.insertedIds.contains(row.id) || u.modifiedIds.contains(row.id) {
                let mark = u.insertedIds.contains(row.id) ? "+" : "~"
                Out.line("  \(mark) \(section.title) | \(row.handle) \(row.relativeTime): \(row.text.replacingOccurrences(of: "\n", with: " ").prefix(100))")
            }
        }
    }

    private func draw(_ u: TimelineDemoUpdate) {
        let width = Terminal.width
        var height = 24
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { height = Int(size.ws_row) }
        var screen = "\u{1B}[H\u{1B}[2J\u{1B}[1m\(title.prefix(width))\u{1B}[0m\n"
        screen += "\(lastFetch) | update \(updates), sequence \(u.sequence), \(u.appliedExactly ? "changeset applied exactly" : "\u{1B}[31mMISMATCH\u{1B}[0m")\n"
        var lines = 2
        outer: for section in u.sections {
            guard lines < height - 2 else { break }
            screen += "\u{1B}[4m\(section.title)\u{1B}[0m\n"
            lines += 1
            for row in section.rows {
                guard lines < height - 2 else { break outer }
                let (mark, color) = u.insertedIds.contains(row.id) ? ("+", "32") : u.modifiedIds.contains(row.id) ? ("~", "33") : u.movedIds.contains(row.id) ? (">", "36") : (" ", "0")
                let text = "\(mark) \(row.relativeTime.padding(toLength: 6, withPad: " ", startingAt: 0)) \(row.handle) \(row.text.replacingOccurrences(of: "\n", with: " "))"
                screen += "\u{1B}[\(color)m\(text.prefix(width - 1))\u{1B}[0m\n"
                lines += 1
            }
        }
        Out.write(screen)
    }

    func finish(_ s: TimelineDemoSummary) {
        if interactive { Out.line() }
        Out.line("summary: \(s.ticks) fetches; \(s.tweetsStored) tweets stored (\(s.listTweets) in the list); \(s.commits) commits")
        Out.line("  fetched: \(s.ingested.inserted) inserted, \(s.ingested.modified) modified, \(s.ingested.deleted) deleted, \(s.ingested.unchanged) unchanged")
        Out.line("  changesets: \(s.changesets) delivered (\(s.rowsInserted) rows inserted, \(s.rowsModified) modified, \(s.rowsDeleted) deleted, \(s.rowsMoved) moved); \(s.inexactChangesets == 0 ? "every one applied exactly" : "\(s.inexactChangesets) did not apply exactly")")
    }
}
