import TweetieDB

// ConflictPolicy, with ConflictResolution: the outcome a resolver function returns, read with it.

/// What a device does when the record it pushes was changed on the server since the version it
/// last saw (another device, or an SQL client, wrote it in between).
///
/// Whatever the policy, the value that loses is kept in `tweetie.conflicts`, and every device
/// converges to the value that wins: the winner is written to the server in the pushing
/// transaction, and every other device pulls it like any change.
///
/// ```swift
/// let tweets = ReplicatedCollection.records(Tweet.self, conflicts: .deletesWin)
/// let notes = ReplicatedCollection.records(Note.self, conflicts: .resolve { local, remote, base in
///     guard let local, let remote else { return .delete }
///     return .merged(local.updated > remote.updated ? local : remote)
/// })
/// ```
public struct ConflictPolicy<R: Record>: Sendable {
    enum Kind: Sendable {
        case lastWriterWins
        case deletesWin
        case resolver(@Sendable (_ local: R?, _ remote: R?, _ base: R?) -> ConflictResolution<R>)
    }
    let kind: Kind

    /// The default: the write that reaches the server last wins (server order), so the pushing
    /// device's value replaces the one it did not see.
    public static var lastWriterWins: ConflictPolicy { ConflictPolicy(kind: .lastWriterWins) }

    /// A delete on either side wins over an edit; between two edits, the last writer wins.
    public static var deletesWin: ConflictPolicy { ConflictPolicy(kind: .deletesWin) }

    /// Your function decides, from the local value, the server's value and their common base (the
    /// value this device last saw on the server; `nil` when the record was new, deleted, or its
    /// history was pruned). A `nil` local or remote value is a delete. It runs on the pushing
    /// device, inside the server transaction that holds the record's row: keep it quick and pure.
    public static func resolve(_ body: @escaping @Sendable (_ local: R?, _ remote: R?, _ base: R?) -> ConflictResolution<R>) -> ConflictPolicy {
        ConflictPolicy(kind: .resolver(body))
    }

    /// The name stored in `tweetie.conflicts.resolution`.
    var name: String {
        switch kind {
        case .lastWriterWins: "last-writer-wins"
        case .deletesWin: "deletes-win"
        case .resolver: "resolver"
        }
    }
}

/// The outcome of a ``ConflictPolicy/resolve(_:)`` function.
public enum ConflictResolution<R: Record>: Sendable {
    /// The local value wins (it is written to the server).
    case keepLocal
    /// The server's value wins (the device takes it).
    case keepRemote
    /// The record is deleted everywhere.
    case delete
    /// A new value replaces both; its primary key must be the record's.
    case merged(R)
}
