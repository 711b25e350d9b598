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

                On a terminal it prints the newest \(ListLimitOptions.terminalDefault) and says on stderr how many \
                more there are; piped, it prints all. Every format is streamed: the tweets are read \
                a page at a time, each page in its own short read transaction.
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Option(help: "Only tweets by this username (screen name, without @).")
        var author: String?

        @Option(parsing: .unconditional,
                help: ArgumentHelp("Only tweets created at or after this date, like 2018-12-08 or 2018-12-08T08:00:00Z.",
                                   discussion: "Forms: \(DateArgument.forms).", valueName: "date"))
        var since: String?

        @Option(parsing: .unconditional,
                help: ArgumentHelp("Only tweets created before this date (the forms of --since).", valueName: "date"))
        var until: String?

        @Option(help: "Only tweets whose text contains this, ignoring case.")
        var contains: String?

        @OptionGroup var limits: ListLimitOptions

        @Option(help: OutputFormat.help(for: .list))
        var format: OutputFormat?

        func validate() throws {
            if let since, DateArgument.parse(since) == nil { throw ValidationError(DateArgument.problem(option: "--since", value: since)) }
            if let until, DateArgument.parse(until) == nil { throw ValidationError(DateArgument.problem(option: "--until", value: until)) }
            if let author, author.hasPrefix("@") { throw ValidationError("--author takes the username without '@': \(author.dropFirst()).") }
        }

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                var printer = RecordListPrinter<Tweet>(format: OutputFormat.resolve(format, for: .list), headers: ["id", "created", "author", "text"]) { t in
                    ["\(t.id)", displayDate(t.created), "@\(t.username)", VisibleText.line(t.text)]
                }
                try limits.list(PagedRead(store: store, query: query(after:)), into: &printer, noun: "tweets")
            }
        }

        /// The tweets of the listing after `last` (from the newest when nil), newest first.
        ///
        /// ```swift
        /// let next = try store.read { try $0.fetch(list.query(after: lastPrinted).limit(1_000)) }
        /// ```
        func query(after last: Tweet?) -> Query<Tweet> {
            TweetQueries.timeline(author: author, since: since.flatMap(DateArgument.parse), until: until.flatMap(DateArgument.parse),
                                  containing: contains, after: last)
        }
    }
}
