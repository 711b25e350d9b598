import ArgumentParser
import Foundation
import TweetieSync

struct TweetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweets",
        abstract: "Inspect and delete stored tweets.",
        discussion: """
            Examples:
              tweetie-db tweets --author icanzilb --limit 5
              tweetie-db tweets show 1071510262772662339
              tweetie-db tweets delete --dry-run 1071510262772662339
            """,
        subcommands: [List.self, Show.self, Delete.self],
        defaultSubcommand: List.self)

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

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print one stored tweet in full.",
            discussion: """
                Examples:
                  tweetie-db tweets show 1071510262772662339
                  tweetie-db tweets show 1071510262772662339 --format json | jq .text
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Argument(help: "The tweet's id.")
        var id: Int64

        @Option(help: "The output format: table, json, or ndjson (json on one line).")
        var format: OutputFormat = .table

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                guard let tweet = try store.read({ try $0.get(Tweet.self, key: id) }) else {
                    throw CLIError("no tweet with id \(id) in \(store.path)")
                }
                if format != .table {
                    Out.line(String(decoding: try RecordJSON.encoder().encode(tweet), as: UTF8.self))
                    return
                }
                Out.line("id          \(tweet.id)")
                Out.line("author      \(tweet.name) (@\(tweet.username), id \(tweet.authorId))")
                Out.line("created     \(RecordJSON.string(from: tweet.created))")
                Out.line("retweets    \(tweet.retweetCount)")
                Out.line("favorites   \(tweet.favoriteCount)")
                Out.line("image       \(tweet.imageURL)")
                Out.line("text        \(tweet.text)")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete stored tweets by id, all or none.",
            discussion: """
                Examples:
                  tweetie-db tweets delete 1071510262772662339 1071510262772662340
                  tweetie-db tweets delete --dry-run 1071510262772662339
                  tweetie-db tweets delete --force 1071510262772662339      (in a script)

                On a terminal it asks first; elsewhere it needs --force. --dry-run prints what it would delete.
                """)

        @OptionGroup var database: ChangeDatabaseOptions

        @OptionGroup var destructive: DestructiveOptions

        @Argument(help: "The ids of the tweets to delete.")
        var ids: [Int64]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one tweet id.") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let ids = Array(Set(self.ids)).sorted()
                func checkAllExist(_ tx: some StoreReading) throws {
                    let missing = try ids.filter { try !tx.contains(Tweet.self, key: $0) }
                    guard missing.isEmpty else {
                        throw CLIError("no tweet with id \(missing.map(String.init).joined(separator: ", ")); nothing was deleted")
                    }
                }
                try store.read(checkAllExist)
                let action = "delete \(counted(ids.count, "tweet")) from \(store.path)"
                if destructive.dryRun {
                    Out.line("would \(action) (ids \(ids.map(String.init).joined(separator: ", "))); nothing was changed")
                    return
                }
                try destructive.confirm(action)
                try store.write { tx in
                    try checkAllExist(tx)
                    for id in ids { try tx.delete(Tweet.self, key: id) }
                }
                Out.error("deleted \(counted(ids.count, "tweet"))")
            }
        }
    }
}
