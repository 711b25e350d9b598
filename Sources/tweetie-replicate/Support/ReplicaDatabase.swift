import ArgumentParser
import Foundation
import TweetieDB
import TweetieReplication
import TweetieSync

/// `--db`, and how the subcommands open the store: with Tweetie's collections and the
/// replicator's own.
struct ReplicaDatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database directory.",
        discussion: "Defaults to $TWEETIE_DB, else $XDG_DATA_HOME/tweetie-db (~/.local/share/tweetie-db).",
        valueName: "path"))
    var path: String?

    var resolvedPath: String { path ?? TweetieDatabase.defaultPath() }

    /// The replicated collections: Tweetie's tweets and users.
    static let collections: [ReplicatedCollection] = [.records(Tweet.self), .records(User.self)]

    /// Opens the store, creating it when missing (a new device downloads everything).
    func openOrCreate() throws -> Store {
        try TweetieDatabase.open(at: resolvedPath, additionalCollections: Replicator.metadataCollections)
    }

    /// Opens an existing store only, as tweetie-db's reading commands do: read-only when this user
    /// cannot write it, with one line on stderr saying so and why. For `prune`, which records the
    /// device it prunes for.
    func openExisting() throws -> Store {
        let path = resolvedPath
        let opened: (store: Store, readOnlyBecause: String?)
        do {
            opened = try TweetieDatabase.openExisting(at: path, additionalCollections: Replicator.metadataCollections)
        } catch let error as StoreError where Self.lacksReplicationState(error) {
            // Opened read-only (this user cannot write it), and it was never replicated.
            throw ReplicationError(.storeNotReplicable, "\(path) has never been replicated, and this user cannot write it, so its replication state cannot be created: there is nothing to prune yet. Run tweetie-replicate run or once on it as a user who can write it first.")
        }
        let (store, readOnlyBecause) = opened
        if let readOnlyBecause {
            FileHandle.standardError.write(Data("tweetie-replicate: note: opened \(path) read-only (\(readOnlyBecause))\n".utf8))
        }
        return store
    }
}

extension ReplicaDatabaseOptions {
    /// Whether `error` is a read-only open's refusal of a store that never replicated: one of
    /// the replicator's own collections is missing, and the open could not create it.
    static func lacksReplicationState(_ error: StoreError) -> Bool {
        error.code == .notFound && Replicator.metadataCollections.contains { error.database?.hasPrefix($0.collectionName) == true }
    }

    /// Opens an existing store read-only, for a command that only reports: it writes nothing,
    /// not even the replicator's own collections in a store that never replicated (the store
    /// is then opened without them, and its replicator reports no device).
    func openToRead() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.readOnly = true
        do {
            return try TweetieDatabase.openExisting(at: resolvedPath, configuration: configuration,
                                                    additionalCollections: Replicator.metadataCollections).store
        } catch let error as StoreError where Self.lacksReplicationState(error) {
            return try TweetieDatabase.openExisting(at: resolvedPath, configuration: configuration).store
        }
    }
}

/// Prints `error` as one sentence on stderr and exits non-zero: 69 (EX_UNAVAILABLE) when the
/// server could not be reached or answered with an error, 65 (EX_DATAERR) for data it cannot
/// apply, 78 (EX_CONFIG) for a missing or newer schema, 64 (EX_USAGE) for a bad URL or argument, 1
/// otherwise.
func fail(_ error: any Error) -> Never {
    let message: String
    let status: Int32
    switch error {
    case let error as ReplicationError:
        message = error.message
        switch error.code {
        case .connection, .server: status = 69
        case .undecodableRecord, .newerRecordSchema: status = 65
        case .schemaMissing, .schemaTooNew: status = 78
        case .badURL, .invalidArgument: status = 64
        case .storeNotReplicable: status = 1
        }
    case let error as TweetieDatabase.NotAnExistingDatabase:
        message = error.description
        status = 66
    case let error as StoreError:
        message = error.message
        status = 1
    default:
        message = "\(error)"
        status = 1
    }
    FileHandle.standardError.write(Data("tweetie-replicate: error: \(message)\n".utf8))
    exit(status)
}
