import Foundation
import TweetieSync

// Every use of TweetieSync's feed API by the server is in this file, so that following a change of
// that API is a change here only.

/// Which feed a request asks for: the query (list, a person, the list's people) and its options.
///
/// Two requests with equal specs share one observation of the store (see ``FeedHub``).
///
/// ```swift
/// let spec = FeedSpec(kind: .person("icanzilb"), sections: .none, moves: true)
/// ```
public struct FeedSpec: Hashable, Sendable, CustomStringConvertible {
    /// The feed's query.
    public enum Kind: Hashable, Sendable {
        /// The list timeline.
        case list
        /// A person's stored tweets.
        case person(String)
        /// The list's members.
        case people
    }

    /// The query.
    public var kind: Kind
    /// How rows are grouped (``FeedSectioning/none`` only for ``Kind/people``).
    public var sections: FeedSectioning
    /// Whether moves are sent as moves (else as deletion plus insertion).
    public var moves: Bool

    /// A spec.
    ///
    /// ```swift
    /// FeedSpec(kind: .list, sections: .day, moves: true)
    /// ```
    public init(kind: Kind, sections: FeedSectioning, moves: Bool) {
        self.kind = kind
        self.sections = sections
        self.moves = moves
    }

    /// `list sections=day moves=1`, for logs.
    public var description: String {
        let name: String
        switch kind {
        case .list: name = "list"
        case .person(let username): name = "person \(username)"
        case .people: name = "people"
        }
        return "\(name) sections=\(sections.rawValue) moves=\(moves ? 1 : 0)"
    }
}

/// One message of a feed, encoded once: its JSON as the feed schema defines it.
struct FeedEvent: Sendable {
    /// `snapshot`, `reset` or `change` (the SSE event name).
    var name: String
    /// The message's sequence.
    var sequence: UInt64
    /// The message JSON (one line, no newline).
    var json: Data
}

/// Encodes a snapshot of the feed's latest results on demand (with reason `initial` or `reset`).
typealias SnapshotMaker = @Sendable (_ reason: String) throws -> FeedEvent

/// What a feed's observation delivers: every element's message, and how to snapshot its results.
struct FeedDelivery: Sendable {
    /// The element's message, encoded.
    var event: FeedEvent
    /// A snapshot of the results after this element.
    var snapshot: SnapshotMaker
}

/// The server's access to TweetieSync's feeds: the feed for a spec, and what the change log says.
enum FeedSource {
    /// Observes the feed `spec` in `store`, calling `deliver` with each element's message, until the
    /// task is cancelled or the observation fails. Relative times are computed against `now`.
    static func follow(_ spec: FeedSpec, list: ListIdentifier, store: Store, now: Date,
                       deliver: (FeedDelivery) async -> Void) async throws {
        switch spec.kind {
        case .list:
            try await follow(TweetieFeeds.list(list, store: store, sections: spec.sections, now: now), moves: spec.moves, deliver: deliver)
        case .person(let username):
            try await follow(TweetieFeeds.person(username, store: store, sections: spec.sections, now: now), moves: spec.moves, deliver: deliver)
        case .people:
            try await follow(TweetieFeeds.people(list, store: store), moves: spec.moves, deliver: deliver)
        }
    }

    private static func follow<R: Record, Row>(_ feed: ChangeFeed<R, Row>, moves: Bool,
                                               deliver: (FeedDelivery) async -> Void) async throws {
        var builder = feed.builder
        let encoder = RecordJSON.encoder()
        for try await change in feed.observation {
            let message = builder.message(for: change, moves: moves)
            let name = message.type == "snapshot" ? (message.reason == "reset" ? "reset" : "snapshot") : "change"
            let event = FeedEvent(name: name, sequence: message.sequence, json: try encoder.encode(message))
            // The builder's closures only format rows (no shared state), so a copy may run on any thread.
            nonisolated(unsafe) let snapshotBuilder = builder
            let results = change.results
            let feedName = message.feed
            let snapshot: SnapshotMaker = { reason in
                let message = FeedMessage(snapshot: snapshotBuilder.sections(of: results), feed: feedName,
                                          sequence: change.sequence, reason: reason)
                return FeedEvent(name: reason == "reset" ? "reset" : "snapshot", sequence: change.sequence,
                                 json: try RecordJSON.encoder().encode(message))
            }
            await deliver(FeedDelivery(event: event, snapshot: snapshot))
        }
    }

    /// The collection a feed's query reads: commits that touch no record of it leave the feed unchanged.
    static func collection(of spec: FeedSpec) -> String {
        switch spec.kind {
        case .list, .person: Tweet.collectionName
        case .people: User.collectionName
        }
    }

    /// The change-log sequences after `sequence` that touched `collection`, and the last sequence
    /// read; `nil` when the log no longer reaches back to `sequence` (entries were pruned).
    static func touches(of collection: String, after sequence: UInt64, in store: Store) throws -> (touching: [UInt64], last: UInt64)? {
        let slice = try store.read { try $0.changeLog(after: sequence) }
        if slice.isTruncated { return nil }
        let touching = slice.entries.filter {
            $0.unlistedCollections.contains(collection) || !($0.changes[collection]?.isEmpty ?? true)
        }.map(\.sequence)
        return (touching, slice.lastSequence)
    }
}
