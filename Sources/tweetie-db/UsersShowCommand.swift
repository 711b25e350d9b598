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
                printed.
                """)

        @OptionGroup var database: ReadDatabaseOptions

        @Argument(help: "The username (screen name), with or without @.")
        var username: String

        @Option(help: "The output format: table, json, or ndjson (json on one line).")
        var format: OutputFormat = .table

        func run() throws {
            try reportingErrors {
                let store = try database.openExisting()
                defer { store.close() }
                let name = username.hasPrefix("@") ? String(username.dropFirst()) : username
                let users = try store.read { try $0.fetch(Query<User>().filter(index: "username", equals: name.lowercased())) }
                guard !users.isEmpty else { throw CLIError("no user @\(name) in \(store.path)") }
                for (position, user) in users.enumerated() {
                    switch format {
                    case .json, .ndjson:
                        let encoder = RecordJSON.encoder()
                        if format == .json { encoder.outputFormatting.insert(.prettyPrinted) }
                        Out.line(String(decoding: try encoder.encode(user), as: UTF8.self))
                    case .table:
                        if position > 0 { Out.line() }
                        Out.line("id          \(user.id)")
                        Out.line("username    @\(user.username)")
                        Out.line("name        \(user.name)")
                        Out.line("about       \(user.about)")
                        Out.line("url         \(user.url)")
                        Out.line("image       \(user.imageURL)")
                        Out.line("lists       \(user.lists.joined(separator: ", "))")
                    }
                }
            }
        }
    }
}
