import ArgumentParser
import Foundation
import TweetieSync

extension UsersCommand {
    /// `users` and `users list`: every stored user. A subcommand of its own (the default), so that
    /// its `--format` never takes the place of `users show --format`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored users, by username.",
            discussion: """
                On a terminal it prints the first \(ListLimitOptions.terminalDefault) and says on stderr how many more \
                there are; piped, it prints all, streamed a page at a time.
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @OptionGroup var limits: ListLimitOptions

        @Option(help: OutputFormat.help(for: .list))
        var format: OutputFormat?

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                var printer = RecordListPrinter<User>(format: OutputFormat.resolve(format, for: .list), headers: ["id", "username", "name", "about"]) { u in
                    ["\(u.id)", "@\(u.username)", u.name, VisibleText.line(u.about)]
                }
                try limits.list(PagedRead(store: store, query: Self.query(after:)), into: &printer, noun: "users")
            }
        }

        /// The users after `last` (from the first when nil), by username: the `username` index
        /// holds lowercased usernames with ties by ascending id, so the users after `last` are
        /// those from its username on (the index bound) past it (the start-after filter).
        ///
        /// ```swift
        /// let next = try store.read { try $0.fetch(UsersCommand.List.query(after: lastPrinted).limit(1_000)) }
        /// ```
        static func query(after last: User?) -> Query<User> {
            guard let last else { return Query<User>().sorted(by: User.byUsername) }
            let name = last.username.lowercased(), id = last.id
            return Query<User>().filter(User.byUsername, from: name, to: nil).sorted(by: User.byUsername)
                .filter { $0.username.lowercased() != name || $0.id > id }
        }
    }
}
