import ArgumentParser
import Foundation
import Logging
import TweetieSync

struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Stream a view model's sections and changesets as NDJSON for renderers.",
        discussion: """
            The first line is a snapshot of the sections with full rows; with --follow, a change line follows whenever commits by any process change the feed. Changes coalesce: one line may carry several commits, so sequence numbers may skip, but they strictly increase within one stream. The format is version 4 of schemas/tweetie-feed.schema.json: every line has "version":4 and a "position" (SEQUENCE.COMMITID) to resume from with --after, and row ids are decimal strings (tweet ids exceed 2^53, which JavaScript's JSON.parse rounds).

            Sections: list and person with --sections day, one per UTC day (key yyyy-MM-dd), newest day first, rows newest first; with --sections none, and for people (rows by username), one section keyed "all". An empty feed is "sections":[]; a section appears by a section insertion with all its rows (never by row insertions into it) and goes by a section deletion. Relative times are computed against --now, fixed while the feed runs: two runs print the same rows only with the same --now.

            With --limit N the feed is a window: the first N rows in display order (the newest N tweets of a timeline), with their sections. Every line then has "window":{"limit":N,"more":BOOL}, "more" saying whether rows follow the last one; a row pushed out at the window's end is deleted by the change and named in "windowLeft", a row pulled in is inserted and named in "windowEntered".
            """,
        subcommands: [List.self, Person.self, People.self])

    @Flag(help: "Print the JSON Schema of the feed's lines (schemas/tweetie-feed.schema.json) and exit.")
    var schema = false

    func run() async throws {
        guard schema else { throw CleanExit.helpRequest(self) }
        Out.line(FeedSchema.text)
    }

    struct Options: ParsableArguments {
        @OptionGroup var database: ReadDatabaseOptions

        @Flag(help: "Keep streaming changes as any process commits, until interrupted.")
        var follow = false

        @Flag(help: "Print the snapshot and exit (the default without --follow).")
        var once = false

        @Flag(name: .customLong("no-moves"), help: "Express moved rows as a deletion plus an insertion, for renderers without moves.")
        var noMoves = false

        @Option(parsing: .unconditional,
                help: ArgumentHelp("The reference time for relative times and day titles. Defaults to the time the feed starts; it stays fixed while the feed runs.",
                                   discussion: "Forms: \(DateArgument.forms).", valueName: "date"))
        var now: String?

        @Option(help: ArgumentHelp("Resume a renderer that applied every message up to this position: the \"position\" of its last message (requires --follow).",
                                   discussion: "A position is SEQUENCE.COMMITID, the commit id as 16 lowercase hexadecimal digits. Prints nothing for the commits up to now when the position is in this database's history and none of the commits since changed the feed's records (the change log still holds them all and names none), else a snapshot with reason \"reset\"; then the changes. A position from another history (a database restored from a backup and written again, replaced by an import) or a bare sequence number always gets the reset. Use the same --now as the run being resumed.",
                                   valueName: "position"),
                transform: { text in
                    guard let position = ChangeLogPosition(text) else {
                        throw ValidationError("'\(text)' is not a feed position: use the \"position\" of a message (SEQUENCE.COMMITID, the commit id as 16 lowercase hexadecimal digits).")
                    }
                    return position
                })
        var after: ChangeLogPosition?

        @Option(help: ArgumentHelp("Show the first N rows only, in display order (the newest N tweets of a timeline): a window, which every line describes in \"window\". Resume (--after) with the same --limit.",
                                   valueName: "N"))
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit).") }
            if follow && once { throw ValidationError("--follow and --once cannot be used together.") }
            if after != nil && !follow { throw ValidationError("--after resumes a stream: use it with --follow.") }
            if let now, DateArgument.parse(now) == nil { throw ValidationError(DateArgument.problem(option: "--now", value: now)) }
        }

        var referenceTime: Date { now.flatMap(DateArgument.parse) ?? Date() }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The list timeline: the list's tweets in sections by day.")

        @OptionGroup var options: Options

        @Option(help: "The list, as OWNER/SLUG.")
        var list: String = ListIdentifier.rxSwift.key

        @Option(help: "How rows are grouped: day (one section per UTC day, newest first) or none (one section).")
        var sections: SectioningArgument = .day

        func validate() throws { _ = try parseList(list) }

        func run() async throws {
            try await reportingErrors {
                let store = try options.database.openExisting()
                defer { store.close() }
                try await stream(.list(try parseList(list), store: store, sections: sections.value, limit: options.limit, now: options.referenceTime), options, store: store)
            }
        }
    }

    struct Person: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "person", abstract: "A person's stored tweets, newest first.")

        @OptionGroup var options: Options

        @Argument(help: "The person's username, without @.")
        var username: String

        @Option(help: "How rows are grouped: day or none.")
        var sections: SectioningArgument = .none

        func run() async throws {
            try await reportingErrors {
                let store = try options.database.openExisting()
                defer { store.close() }
                try await stream(.person(username, store: store, sections: sections.value, limit: options.limit, now: options.referenceTime), options, store: store)
            }
        }
    }

    struct People: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "people", abstract: "The list's members, by username.")

        @OptionGroup var options: Options

        @Option(help: "The list, as OWNER/SLUG.")
        var list: String = ListIdentifier.rxSwift.key

        func validate() throws { _ = try parseList(list) }

        func run() async throws {
            try await reportingErrors {
                let store = try options.database.openExisting()
                defer { store.close() }
                try await stream(.people(try parseList(list), store: store, limit: options.limit), options, store: store)
            }
        }
    }

    enum SectioningArgument: String, ExpressibleByArgument, CaseIterable {
        case day, none
        var value: FeedSectioning { self == .day ? .day : .none }
    }
}

/// Prints the feed's messages, one JSON object per line, flushing each. Following, it logs once
/// how other processes' commits reach it: a warning when inotify is unavailable (polling only),
/// otherwise at info level (`TWEETIE_LOG_LEVEL=info`).
private func stream<Row>(_ feed: ChangeFeed<Row>, _ options: FeedCommand.Options, store: Store) async throws {
    let encoder = RecordJSON.encoder()
    var logged = false
    let messages = options.after.map { feed.messages(after: $0, moves: !options.noMoves) } ?? feed.messages(moves: !options.noMoves)
    for try await message in messages {
        var line = try encoder.encode(message)
        line.append(0x0A)
        line.withUnsafeBytes { Out.write($0) }
        if !options.follow { return }
        if !logged {
            // The first element started the watcher: its paths are known now.
            let wakeUp = store.commitWakeUp
            Logger(label: "tweetie-db.feed").log(level: wakeUp.watchesNotifyFile ? .info : .warning,
                                                 "following commits of other processes by \(wakeUp)")
            logged = true
        }
    }
}

/// Parses `--list` (`OWNER/SLUG`), its error a usage error.
func parseList(_ text: String) throws -> ListIdentifier {
    do {
        return try ListIdentifier(parsing: text)
    } catch {
        throw ValidationError(error.description)
    }
}
