import ArgumentParser
import TweetieDB
import TweetieReplication

/// `--batch`, and how `once` and `run` set up their replicator: the server checked first (a bad
/// URL or password, or a database without the schema, writes nothing here), then the store
/// opened or created, then the replicator over Tweetie's collections.
struct ReplicatorOptions: ParsableArguments {
    @Option(help: "The most records in one push or pull batch (one server transaction, one local write transaction).")
    var batch = 1_000

    func validate() throws {
        guard batch >= 1, batch <= 100_000 else { throw ValidationError("--batch must be from 1 to 100000, got \(batch).") }
    }

    func replicator(database: ReplicaDatabaseOptions, postgres: PostgresOptions,
                    configure: (inout ReplicatorConfiguration) -> Void = { _ in }) async throws -> (Replicator, PostgresURL) {
        let url = try postgres.resolved()
        try await Replicator.checkServer(url: url)
        let store = try database.openOrCreate()
        var configuration = ReplicatorConfiguration(url: url)
        configuration.batchSize = batch
        configure(&configuration)
        do {
            return (try Replicator(store: store, collections: ReplicaDatabaseOptions.collections, configuration: configuration), url)
        } catch {
            store.close()
            throw error
        }
    }
}
