import ArgumentParser
import Foundation
import TweetieReplication

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Install the replication schema (schemas/postgres/) in a PostgreSQL database.",
        discussion: "Creates the schema tweetie with its tables, sequence and triggers, in one transaction. Running it again, or on a database another device already set up, changes nothing; a database whose schema is newer than this version knows is refused. It needs the right to create a schema in the database.")

    @OptionGroup var postgres: PostgresOptions

    func run() async throws {
        do {
            let url = try postgres.resolved()
            try await Replicator.installSchema(url: url)
            print("tweetie-replicate: the replication schema is installed in \(url)")
        } catch {
            fail(error)
        }
    }
}
