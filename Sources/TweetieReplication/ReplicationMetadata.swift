import Foundation
import TweetieDB

// The replicator's own state lives in the store it replicates, as two ordinary collections, so
// that what it applies and where its cursors stand change in the same write transaction: a pulled
// batch, its keys' versions and the pull cursor commit together or not at all.

/// The replicator's state of one store: which device it is and how far it has pushed and pulled.
/// One record, keyed `"device"`.
@Record(collection: "replication_device")
struct ReplicationDeviceRecord: Identifiable, Sendable {
    static let onlyKey = "device"
    var id: String
    /// The device's id in `tweetie.devices`, drawn once when the store first replicates.
    var deviceID: UUID
    /// The change-log sequence everything up to which has been pushed (0: nothing yet). It lives
    /// in the store whose log it counts, so a restored backup restores both together.
    var pushedSequence: UInt64
    /// The pull cursor over `tweetie.changes`: every change at or below `(pulledTxid, pulledID)`
    /// has been applied. `nil` before the first pull, which reads a snapshot instead.
    var pulledTxid: Int64?
    var pulledID: Int64
}

/// What this store knows of one replicated record on the server: the version it last saw there,
/// and the digest of the record's JSON at that version (``RecordDigest/absent`` for a deleted or
/// never-seen record). A local record whose digest differs has changes to push.
@Record(collection: "replication_keys")
struct ReplicatedKeyRecord: Identifiable, Sendable {
    /// `collection` + "/" + the key's text (collection names hold no "/").
    var id: String
    /// The server version last seen (0: never on the server).
    var version: Int64
    var digest: UInt64

    static func id(collection: String, key: String) -> String { collection + "/" + key }
}
