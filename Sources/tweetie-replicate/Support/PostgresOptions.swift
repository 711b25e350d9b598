import ArgumentParser
import Foundation
import TweetieReplication

/// `--postgres`, which every subcommand takes: the URL, or `$TWEETIE_POSTGRES_URL`.
struct PostgresOptions: ParsableArguments {
    @Option(name: .customLong("postgres"), help: ArgumentHelp(
        "The PostgreSQL database, as a libpq URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…].",
        discussion: "Defaults to $TWEETIE_POSTGRES_URL. Without a password in the URL, PGPASSWORD or ~/.pgpass gives it.",
        valueName: "url"))
    var url: String?

    /// The parsed URL; a missing or unreadable one is a ``ReplicationError`` (`badURL`: exit 64).
    func resolved() throws -> PostgresURL {
        guard let text = url ?? ProcessInfo.processInfo.environment["TWEETIE_POSTGRES_URL"], !text.isEmpty else {
            throw ReplicationError(.badURL, "No PostgreSQL database: pass --postgres URL or set TWEETIE_POSTGRES_URL.")
        }
        return try PostgresURL(text)
    }
}
