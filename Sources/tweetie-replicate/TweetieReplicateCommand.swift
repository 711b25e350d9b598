import ArgumentParser

@main
struct TweetieReplicateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tweetie-replicate",
        abstract: "Replicate Tweetie databases through PostgreSQL: every store that replicates through the same database converges to the same tweets and users.",
        discussion: """
            Run init once per PostgreSQL database (it installs the published schema, schemas/postgres/, and is idempotent), then run on each machine (or once, from a script). A store pushes what it wrote since its last push and pulls what the others wrote, with live queries on it getting ordinary changesets; local writes never wait for the network. Rows written into tweetie.records by any SQL client reach every store too.

            The URL is libpq's: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=require…], from --postgres or $TWEETIE_POSTGRES_URL; the password may also come from PGPASSWORD or ~/.pgpass.
            """,
        subcommands: [InitCommand.self, RunCommand.self, OnceCommand.self, StatusCommand.self, PruneCommand.self])
}
