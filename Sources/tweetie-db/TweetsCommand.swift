import ArgumentParser
import Foundation
import TweetieSync

struct TweetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweets",
        abstract: "Inspect and delete stored tweets.",
        subcommands: [List.self, Show.self, Delete.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored tweets, newest first.")

        @OptionGroup var database: DatabaseOptions

        @Option(help: "Only tweets by this username (screen name, without @).")
        var author: String?

        @Option(help: "Only tweets created at or after this ISO 8601 date, like 2018-12-08 or 2018-12-08T08:00:00Z.")
        var since: String?

        @Option(help: "Only tweets created before this ISO 8601 date.")
        var until: String?

        @Option(help: "Only tweets whose text contains this, ignoring case.")
        var contains: String?

        @Option(help: "The most tweets to print.")
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
            abstract: "Print one stored tweet in full.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The tweet's id.")
        var id: Int64

        @Option(help: "The output format: table or json.")
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
            abstract: "Delete stored tweets by id, all or none.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The ids of the tweets to delete.")
        var ids: [Int64]

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give at least one tweet id.") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let ids = self.ids
                try store.write { tx in
                    let missing = try ids.filter { try !tx.contains(Tweet.self, key: $0) }
                    guard missing.isEmpty else {
                        throw CLIError("no tweet with id \(missing.map(String.init).joined(separator: ", ")); nothing was deleted")
                    }
                    for id in ids { try tx.delete(Tweet.self, key: id) }
                }
                Out.error("deleted \(Set(ids).count) tweet(s)")
            }
        }
    }
}
