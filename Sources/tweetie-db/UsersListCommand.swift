import ArgumentParser
import Foundation
import TweetieSync

extension UsersCommand {
    /// `users` and `users list`: every stored user. A subcommand of its own (the default), so that
    /// its `--format` never takes the place of `users show --format`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored users, by username.")

        @OptionGroup var database: ReadDatabaseOptions

        @Option(help: "The output format: table, json or ndjson. Defaults to table on a terminal, ndjson otherwise.")
        var format: OutputFormat?

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let users = try store.read { try $0.fetch(Query<User>().sorted(byIndex: "username")) }
                try printRecords(users, format: format ?? .automatic) { users in
                    var table = TextTable(headers: ["id", "username", "name", "about"])
                    for u in users { table.rows.append(["\(u.id)", "@\(u.username)", u.name, u.about.replacingOccurrences(of: "\n", with: " ")]) }
                    return table.render()
                }
            }
        }
    }
}
