import Foundation
import Logging
import TweetieDB

// Replicator, with its configuration and the summaries its push and pull return: the types a
// caller meets together.

/// Replicates a store through a PostgreSQL database that other stores replicate through too.
///
/// - **Push.** The outbox is the change log: the keys logged after the push cursor, with the
///   *current* record of each (several changes to one key push once). A batch is one server
///   transaction; a batch retried after a lost answer or a crash writes nothing new, because a
///   record the server already has is adopted, not written again.
/// - **Pull.** Changes are read in commit order (see `schemas/postgres/001-replication.sql`), the
///   current server value of each changed key is applied, and the records, their versions and the
///   pull cursor commit in one write transaction: each change is applied exactly once, and
///   observers get ordinary changesets.
/// - **Conflicts.** A local record changed since the server version the device last saw, while
///   the server's changed too, is resolved by its collection's ``ConflictPolicy`` when pushed;
///   the loser is kept in `tweetie.conflicts`. Pulls never overwrite unpushed local changes.
/// - **Offline.** Local writes never wait for the network; whatever was written offline is pushed
///   when the server is back. A push cursor that fell behind the change log's retention makes the
///   next push compare every record; a pull cursor behind the server's pruning horizon makes the
///   next pull read a snapshot. Neither loses a local change.
///
/// The store must hold the replicated collections and ``metadataCollections``:
///
/// ```swift
/// let store = try Store.open(at: path, collections: [Tweet.self, User.self] + Replicator.metadataCollections)
/// let replicator = try Replicator(store: store, collections: [.records(Tweet.self), .records(User.self)],
///                                 configuration: .init(url: try PostgresURL("postgres://app@db/tweetie")))
/// try await replicator.run()   // until cancelled
/// ```
public final class Replicator: Sendable {
    /// The record types of the replicator's own state (the device and its cursors, each
    /// replicated key's server version): add them to the store's collections.
    public static let metadataCollections: [any Record.Type] = [ReplicationDeviceRecord.self, ReplicatedKeyRecord.self]

    public let store: Store
    public let collections: [ReplicatedCollection]
    public let configuration: ReplicatorConfiguration
    let byName: [String: ReplicatedCollection]
    /// Whether the store holds ``metadataCollections`` (only a read-only store that never
    /// replicated does not).
    var hasMetadata: Bool { store.collectionNames.contains(ReplicationDeviceRecord.collectionName) }
    var logger: Logger { configuration.logger }

    /// Checks that `store` holds every collection and the metadata collections.
    ///
    /// A store opened read-only that never replicated has no metadata collections (opening it
    /// could not create them): its replicator can only report ``status(askServer:)``, and every
    /// other operation throws.
    public init(store: Store, collections: [ReplicatedCollection], configuration: ReplicatorConfiguration) throws {
        let names = Set(store.collectionNames)
        let metadata = Self.metadataCollections.map { $0.collectionName }
        let wanted = collections.map(\.name) + (store.configuration.readOnly && !metadata.contains(where: names.contains) ? [] : metadata)
        let missing = wanted.filter { !names.contains($0) }
        guard missing.isEmpty else {
            throw ReplicationError(.storeNotReplicable,
                                   "The store at \(store.path) was opened without the collections \(missing.joined(separator: ", ")): open it with the replicated record types and Replicator.metadataCollections.")
        }
        var byName: [String: ReplicatedCollection] = [:]
        for collection in collections {
            guard byName.updateValue(collection, forKey: collection.name) == nil else {
                throw ReplicationError(.storeNotReplicable, "The collection \(collection.name) is listed twice.")
            }
        }
        self.store = store
        self.collections = collections
        self.configuration = configuration
        self.byName = byName
    }

    // MARK: Device

    /// The store's device record, created (with a new random device id) on first use.
    func device() async throws -> ReplicationDeviceRecord {
        guard hasMetadata else {
            throw ReplicationError(.storeNotReplicable, "\(store.path) has never been replicated and is open read-only, so its replication state cannot be created: open it writable to replicate it.")
        }
        if let device = try await store.read({ try $0.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) }) {
            return device
        }
        return try await store.write { writer in
            if let device = try writer.get(ReplicationDeviceRecord.self, key: ReplicationDeviceRecord.onlyKey) { return device }
            let device = ReplicationDeviceRecord(id: ReplicationDeviceRecord.onlyKey, deviceID: UUID(), pushedSequence: 0,
                                                 pulledTxid: nil, pulledID: 0)
            try writer.add(device)
            return device
        }
    }

    /// The store's device id (drawn when the store first replicates).
    public func deviceID() async throws -> UUID { try await device().deviceID }

    /// Registers the device and its collections on the server: the collections' key fields must
    /// agree with the server's, and the server keeps the highest schema version declared.
    func register(on link: PostgresLink, device: ReplicationDeviceRecord) async throws {
        try await ReplicationSchema.check(on: link)
        let names = collections.map(\.name)
        let fields = collections.map(\.keyField)
        let versions = collections.map { Int32($0.schemaVersion) }
        let rows = try await link.rows("""
            INSERT INTO tweetie.collections AS c (name, key_field, schema_version)
            SELECT * FROM unnest(\(names)::text[], \(fields)::text[], \(versions)::int4[])
            ON CONFLICT (name) DO UPDATE SET schema_version = GREATEST(c.schema_version, EXCLUDED.schema_version),
                updated_at = CASE WHEN c.schema_version < EXCLUDED.schema_version THEN now() ELSE c.updated_at END
            RETURNING name, key_field
            """)
        for row in rows {
            let (name, field) = try row.decode((String, String).self)
            if let collection = byName[name], collection.keyField != field {
                throw ReplicationError(.storeNotReplicable,
                                       "The collection \(name) is keyed by the field \"\(field)\" on the server, but by \"\(collection.keyField)\" here.")
            }
        }
        var declared: [String: Int] = [:]
        for collection in collections { declared[collection.name] = collection.schemaVersion }
        let schemaJSON = String(decoding: try JSONEncoder().encode(declared), as: UTF8.self)
        let id = device.deviceID.uuidString
        let name = configuration.deviceName
        try await link.rows("""
            INSERT INTO tweetie.devices (device_id, name, schema_versions) VALUES (\(id)::uuid, \(name), \(schemaJSON)::jsonb)
            ON CONFLICT (device_id) DO UPDATE SET name = EXCLUDED.name, schema_versions = EXCLUDED.schema_versions, last_seen = now()
            """)
    }

    // MARK: Connecting

    func connect() async throws -> PostgresLink {
        try await PostgresLink.connect(configuration.url, logger: logger, timeout: configuration.statementTimeout)
    }

    /// Installs (or completes) the replication schema in the database at `url`. Idempotent.
    ///
    /// ```swift
    /// try await Replicator.installSchema(url: try PostgresURL("postgres://admin@db/tweetie"))
    /// ```
    public static func installSchema(url: PostgresURL, logger: Logger = Logger(label: "tweetie.replication")) async throws {
        try await PostgresLink.with(url, logger: logger) { try await ReplicationSchema.install(on: $0) }
    }

    /// Connects to `url` and checks its replication schema: what a command does before it opens
    /// or creates a store, so that a bad URL, a wrong password or a database without the schema
    /// writes nothing.
    public static func checkServer(url: PostgresURL, logger: Logger = Logger(label: "tweetie.replication")) async throws {
        try await PostgresLink.with(url, logger: logger) { try await ReplicationSchema.check(on: $0) }
    }

    /// Connects, registers the device, runs `body` on the connection, and closes it.
    func withRegisteredLink<T: Sendable>(_ body: (PostgresLink) async throws -> T) async throws -> T {
        try await PostgresLink.with(configuration.url, logger: logger, timeout: configuration.statementTimeout) { link in
            try await register(on: link, device: try await device())
            return try await body(link)
        }
    }

    /// Pushes every local change, then pulls every server change, once, on one connection.
    ///
    /// ```swift
    /// let (pushed, pulled) = try await replicator.once()
    /// ```
    @discardableResult
    public func once(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) async throws -> (push: PushSummary, pull: PullSummary) {
        try await withRegisteredLink { link in
            (try await push(on: link), try await pull(on: link, progress: progress))
        }
    }
}

/// How a ``Replicator`` connects and paces itself.
public struct ReplicatorConfiguration: Sendable {
    /// The PostgreSQL database.
    public var url: PostgresURL
    /// The device's name in `tweetie.devices`. Default: the host name.
    public var deviceName: String
    /// The most records one push or pull batch carries (one server transaction, one local write
    /// transaction). Default: 1,000.
    public var batchSize: Int = 1_000
    /// How often ``Replicator/run()`` looks for changes when nothing woke it (server
    /// notifications or local commits normally do). Default: 5 seconds.
    public var pollInterval: Duration = .seconds(5)
    /// The longest wait between reconnection attempts after the server went away. Default: 5 s.
    public var maximumRetryDelay: Duration = .seconds(5)
    /// How long one statement may wait for the server before the connection is given up and the
    /// operation fails (``Replicator/run(events:)`` then connects again). Default: 60 seconds.
    public var statementTimeout: Duration = .seconds(60)
    /// How long the server keeps changes for a device that stays away: ``Replicator/run(events:)``
    /// prunes the server's change table with it (see ``Replicator/prune(retention:minimumInterval:)``);
    /// `nil`: it never prunes. Default: 7 days.
    public var retention: Duration? = .seconds(7 * 86_400)
    /// How often ``Replicator/run(events:)`` prunes, counted across every device of the database
    /// (a device that finds a pruning younger than this does nothing). Default: 1 minute.
    public var pruneInterval: Duration = .seconds(60)
    public var logger: Logger

    public init(url: PostgresURL, deviceName: String = ProcessInfo.processInfo.hostName,
                logger: Logger = Logger(label: "tweetie.replication")) {
        self.url = url
        self.deviceName = deviceName
        self.logger = logger
    }
}

/// What one push did.
public struct PushSummary: Sendable, Hashable, Codable {
    /// Records written to the server.
    public var pushed = 0
    /// Records the server already had (a retried batch, or the same value written elsewhere).
    public var adopted = 0
    /// Conflicts resolved (each kept in `tweetie.conflicts`).
    public var conflicts = 0
    /// Server transactions.
    public var batches = 0
    /// Whether the whole store was compared with what the server last had (the push cursor was
    /// behind the change log's retention, or an entry listed no keys).
    public var reconciled = false
    public init() {}
}

/// What one pull did.
public struct PullSummary: Sendable, Hashable, Codable {
    /// Server changes read.
    public var changes = 0
    /// Records written to the store (changes to records with unpushed local edits wait for the
    /// push, which resolves them).
    public var applied = 0
    /// Local write transactions.
    public var batches = 0
    /// Whether the pull read a snapshot of the server's records (a new device, or a cursor behind
    /// the server's pruning horizon).
    public var snapshot = false
    /// Whether committed changes wait behind an older transaction still running on the server
    /// (they are read once it ends; ``Replicator/run(events:)`` looks again within milliseconds).
    public var waiting = false
    public init() {}
}
