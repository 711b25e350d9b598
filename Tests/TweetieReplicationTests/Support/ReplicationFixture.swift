import Foundation
import Logging
import TweetieDB
@testable import TweetieReplication
import TweetieSync
import TweetieTestSupport

/// A fresh PostgreSQL database with the replication schema, and stores replicating through it.
/// `nil` (the test returns) when no server is configured outside CI; in CI a missing server fails.
final class ReplicationFixture: @unchecked Sendable {
    let server: PostgresTestServer
    let databaseURL: String
    let url: PostgresURL
    private var stores: [Store] = []

    static func make() async throws -> ReplicationFixture? {
        guard let server = try PostgresTestServer.require() else { return nil }
        let databaseURL = try server.createDatabase()
        let fixture = try ReplicationFixture(server: server, databaseURL: databaseURL)
        try await Replicator.installSchema(url: fixture.url)
        return fixture
    }

    private init(server: PostgresTestServer, databaseURL: String) throws {
        self.server = server
        self.databaseURL = databaseURL
        self.url = try PostgresURL(databaseURL)
    }

    /// A new temporary store holding Tweetie's collections and the replicator's.
    func store(configuration: StoreConfiguration = StoreConfiguration()) throws -> Store {
        let store = try Store.temporary(collections: TweetieDatabase.collections + Replicator.metadataCollections, configuration: configuration)
        stores.append(store)
        return store
    }

    /// A replicator of Tweetie's collections. `run` prunes only with a `retention`: the tests that
    /// count the server's change rows need them all.
    func replicator(_ store: Store, tweets: ConflictPolicy<Tweet> = .lastWriterWins, batchSize: Int = 1_000,
                    url: PostgresURL? = nil, retention: Duration? = nil, pollInterval: Duration = .milliseconds(200)) throws -> Replicator {
        var configuration = ReplicatorConfiguration(url: url ?? self.url, deviceName: "test")
        configuration.batchSize = batchSize
        configuration.retention = retention
        configuration.pruneInterval = .milliseconds(200)
        configuration.pollInterval = pollInterval
        configuration.maximumRetryDelay = .milliseconds(400)
        configuration.statementTimeout = .seconds(10)
        configuration.logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        return try Replicator(store: store, collections: [.records(Tweet.self, conflicts: tweets), .records(User.self)],
                              configuration: configuration)
    }

    @discardableResult
    func psql(_ sql: String) throws -> String { try server.psql(sql, database: databaseURL) }

    /// Every tweet and user of `store` as sorted JSON lines: two stores with the same lines hold
    /// the same records.
    static func contents(of store: Store) throws -> [String] {
        let encoder = RecordJSON.encoder()
        return try store.read { reader in
            try reader.fetch(Query<Tweet>()).map { "tweets " + String(decoding: try encoder.encode($0), as: UTF8.self) }
                + reader.fetch(Query<User>()).map { "users " + String(decoding: try encoder.encode($0), as: UTF8.self) }
        }
    }

    deinit {
        for store in stores { store.close() }
        try? server.dropDatabase(url: databaseURL)
    }
}

/// Tweets for tests: `SyntheticTweets`' tweets with their text replaced.
func tweet(_ id: Int64, _ text: String) -> Tweet {
    var tweet = SyntheticTweets(seed: 7).tweet(at: Int(id % 1_000))
    tweet.id = id
    tweet.text = text
    return tweet
}
