import ArgumentParser
import Foundation
import TweetieSync

extension UsersCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a stored user in full, by username.",
            discussion: """
                Examples:
                  tweetie-db users show icanzilb
                  tweetie-db users show @icanzilb --format json | jq -r .idStr

                The username is matched ignoring case, with or without @. Usernames are not unique \
                over time (a screen name can pass to another account): every stored user with it is \
                printed, each as its own JSON document (or NDJSON line).
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Argument(help: "The username (screen name), with or without @.")
        var username: String

        @Option(help: OutputFormat.help(for: .report))
        var format: OutputFormat?

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let name = username.hasPrefix("@") ? String(username.dropFirst()) : username
                let users = try store.read { try $0.fetch(Query<User>().filter(User.byUsername, equals: name.lowercased())) }
                guard !users.isEmpty else { throw CLIError("no user @\(name) in \(store.path)") }
                let format = OutputFormat.resolve(format, for: .report)
                for (position, user) in users.enumerated() {
                    if position > 0, format == .table { Out.line() }
                    try printRecord(user, format: format) {
                        fieldTable([
                            ("id", "\(user.id)"),
                            ("username", "@\(user.username)"),
                            ("name", user.name),
                            ("about", user.about),
                            ("url", user.url),
                            ("image", user.imageURL),
                            ("lists", user.lists.joined(separator: ", ")),
                        ])
                    }
                }
            }
        }
    }
}
