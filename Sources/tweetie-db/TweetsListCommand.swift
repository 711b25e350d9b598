import ArgumentParser
import Foundation
import TweetieSync

extension TweetsCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored tweets, newest first.",
            discussion: """
                Examples:
                  tweetie-db tweets list --author icanzilb --since 2018-12-08 --limit 20
                  tweetie-db tweets list --contains rxswift --format json
                  tweetie-db tweets list --format ndjson | jq -r .idStr
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Option(help: "Only tweets by this username (screen name, without @).")
        var author: String?

        @Option(help: "Only tweets created at or after this ISO 8601 date, like 2018-12-08 or 2018-12-08T08:00:00Z.")
        var since: String?

        @Option(help: "Only tweets created before this ISO 8601 date.")
        var until: String?

        @Option(help: "Only tweets whose text contains this, ignoring case.")
        var contains: String?

        @Option(parsing: .unconditional, help: "The most tweets to print.")
        var limit: Int?

        @Option(help: "The output format: table, json or ndjson. Defaults to table on a terminal, ndjson otherwise.")
        var format: OutputFormat?

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must not be negative.") }
            if let since, parseDate(since) == nil { throw ValidationError("--since '\(since)' is not an ISO 8601 date (like 2018-12-08 or 2018-12-08T08:00:00Z).") }
            if let until, parseDate(until) == nil { throw ValidationError("--until '\(until)' is not an ISO 8601 date (like 2018-12-08 or 2018-12-08T08:00:00Z).") }
            if let author, author.hasPrefix("@") { throw ValidationError("--author takes the username without '@': \(author.dropFirst()).") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let query = TweetQueries.timeline(author: author, since: since.flatMap(parseDate), until: until.flatMap(parseDate),
                                                  containing: contains, limit: limit)
                let tweets = try store.read { try $0.fetch(query) }
                try printRecords(tweets, format: format ?? .automatic) { tweets in
                    var table = TextTable(headers: ["id", "created", "author", "text"])
                    for t in tweets {
                        table.rows.append(["\(t.id)", RecordJSON.string(from: t.created), "@\(t.username)", t.text.replacingOccurrences(of: "\n", with: " ")])
                    }
                    return table.render()
                }
            }
        }
    }
}
