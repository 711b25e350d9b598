import ArgumentParser
import Foundation
import TweetieSync

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Run one ingest from a captured API cache, the simulated source, or the live API.",
        discussion: "Examples:\n  tweetie-db sync --simulated --ticks 20\n  tweetie-db sync --api-cache Tests/Fixtures/api-cache\n  TWITTER_BEARER_TOKEN=… tweetie-db sync --live --list icanzilb/RxSwift\n\nTweets are stored with update policy .modified (identical tweets are not rewritten) and their list membership recorded. The live API reads TWITTER_BEARER_TOKEN, or TWITTER_CONSUMER_KEY and TWITTER_CONSUMER_SECRET.")

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var source: SourceOptions

    @Flag(help: "Use the simulated Twitter source.")
    var simulated = false

    @Option(help: "How many steps the simulated source advances, fetching after each.")
    var ticks: Int = 10

    @Option(name: .customLong("record-api-cache"),
            help: ArgumentHelp("Also write every response the source returns into DIR, under the book's API cache names, for a later --api-cache DIR.",
                               discussion: "With --simulated the run also pages back to the oldest tweet (max_id pages) and fetches every member's user timeline, so the cache holds what a replay reads. Deletions are not recorded (a REST cache has no place for them).",
                               valueName: "DIR"))
    var recordAPICache: String?

    @Option(help: OutputFormat.help(for: .report))
    var format: OutputFormat?

    func validate() throws {
        try source.validate(simulatedFlag: simulated)
        guard ticks >= 0 else { throw ValidationError("--ticks must not be negative.") }
        if let recordAPICache, let apiCache = source.apiCache,
           URL(fileURLWithPath: recordAPICache).standardizedFileURL == URL(fileURLWithPath: apiCache).standardizedFileURL {
            throw ValidationError("--record-api-cache must name another directory than --api-cache (it would rewrite the files it reads).")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let store = try database.openForWriting()
            defer { store.close() }
            let list = source.listIdentifier
            let recording = recordAPICache.map { URL(fileURLWithPath: $0, isDirectory: true) }
            let summary: SyncSummary
            if let apiCache = source.apiCache {
                summary = try await TimelineSync.fromCache(directory: URL(fileURLWithPath: apiCache), list: list, recording: recording, into: store)
            } else if simulated {
                summary = try await TimelineSync.simulated(seed: source.seed, ticks: ticks, recording: recording, into: store)
            } else {
                summary = try await TimelineSync.live(credentials: TimelineSync.credentialsFromEnvironment()!, list: list, recording: recording, into: store)
            }
            try printRecord(summary, format: OutputFormat.resolve(format, for: .report)) {
                var table = TextTable(headers: ["source", "received", "new", "updated", "unchanged", "deleted", "dropped"])
                for step in summary.steps + [SyncSummary.Step(source: "total", report: summary.total)] {
                    let r = step.report
                    table.rows.append([step.source, "\(r.received)", "\(r.inserted)", "\(r.modified)", "\(r.unchanged)", "\(r.deleted)", "\(r.dropped)"])
                }
                return table.render()
            }
        }
    }
}
