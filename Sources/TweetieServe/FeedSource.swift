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
    /// The window: the feed's first `limit` rows (``FeedRequest`` always asks for one).
    public var limit: Int?

    /// A spec.
    ///
    /// ```swift
    /// FeedSpec(kind: .list, sections: .day, moves: true, limit: 100)
    /// ```
    public init(kind: Kind, sections: FeedSectioning, moves: Bool, limit: Int? = nil) {
        self.kind = kind
        self.sections = sections
        self.moves = moves
        self.limit = limit
    }

    /// Whether `other` is the same feed, whatever its window.
    func sameFeed(as other: FeedSpec) -> Bool {
        kind == other.kind && sections == other.sections && moves == other.moves
    }

    /// `list sections=day moves=1 limit=100`, for logs.
    public var description: String {
        let name: String
        switch kind {
        case .list: name = "list"
        case .person(let username): name = "person \(username)"
        case .people: name = "people"
        }
        return "\(name) sections=\(sections.rawValue) moves=\(moves ? 1 : 0)" + (limit.map { " limit=\($0)" } ?? "")
    }
}

/// One message of a feed, encoded once: its JSON as the feed schema defines it.
struct FeedEvent: Sendable {
    /// The reason of the snapshot this event carries (`initial` or `reset`), `nil` for a change.
    var snapshotReason: FeedSnapshotReason?
    /// The message's history position (its SSE `id`).
    var position: ChangeLogPosition
    /// The message's sequence.
    var sequence: UInt64 { position.sequence }
    /// The message JSON (one line, no newline).
    var json: Data

    /// `snapshot`, `reset` or `change`: the SSE event name.
    var name: String {
        switch snapshotReason {
        case nil: "change"
        case .initial: "snapshot"
        case .reset: "reset"
        }
    }
}

/// Encodes a snapshot of the feed's sections after one delivery, with reason `initial` or `reset`.
typealias SnapshotMaker = @Sendable (_ reason: FeedSnapshotReason) throws -> FeedEvent

/// What a feed's observation delivers: the message, encoded, and how to snapshot its sections.
struct FeedDelivery: Sendable {
    /// The delivery's message.
    var event: FeedEvent
    /// A snapshot of the sections after this delivery.
    var snapshot: SnapshotMaker
}

/// The server's access to one of TweetieSync's ``ChangeFeed``s: its deliveries, encoded, and what
/// the change log says about a resuming client.
struct FeedSource: Sendable {
    /// Observes the feed until the task is cancelled or the observation fails, calling `deliver`
    /// with each delivery's message.
    let follow: @Sendable (_ deliver: (FeedDelivery) async -> Void) async throws -> Void
    /// Where a renderer at `after` resumes among the delivered `sequences`
    /// (`SectionedUpdates.resumePoint(after:among:)`), `nil` when it needs a snapshot.
    let resumePoint: @Sendable (_ after: ChangeLogPosition, _ sequences: [UInt64]) throws -> UInt64?

    /// A source from its two parts (a feed of `store`, or a test's own deliveries).
    init(follow: @escaping @Sendable (_ deliver: (FeedDelivery) async -> Void) async throws -> Void,
         resumePoint: @escaping @Sendable (_ after: ChangeLogPosition, _ sequences: [UInt64]) throws -> UInt64?) {
        self.follow = follow
        self.resumePoint = resumePoint
    }

    /// The feed `spec` of `store`, relative times against `now`.
    init(_ spec: FeedSpec, list: ListIdentifier, store: Store, now: Date) {
        switch spec.kind {
        case .list:
            self.init(ChangeFeed.list(list, store: store, sections: spec.sections, limit: spec.limit, now: now), moves: spec.moves)
        case .person(let username):
            self.init(ChangeFeed.person(username, store: store, sections: spec.sections, limit: spec.limit, now: now), moves: spec.moves)
        case .people:
            self.init(ChangeFeed.people(list, store: store, limit: spec.limit), moves: spec.moves)
        }
    }

    private init<Row>(_ feed: ChangeFeed<Row>, moves: Bool) {
        self.init(follow: { deliver in
            var builder = FeedBuilder<Row>(feed: feed.name, moves: moves)
            let encoder = RecordJSON.encoder()
            for try await update in feed.updates {
                let message = builder.message(for: update)
                let reason = message.type == .snapshot ? message.reason ?? .initial : nil
                let event = FeedEvent(snapshotReason: reason, position: message.position, json: try encoder.encode(message))
                let snapshot: SnapshotMaker = { [builder] reason in
                    FeedEvent(snapshotReason: reason, position: update.position,
                              json: try RecordJSON.encoder().encode(builder.snapshot(of: update, reason: reason)))
                }
                await deliver(FeedDelivery(event: event, snapshot: snapshot))
            }
        }, resumePoint: { after, sequences in try feed.updates.resumePoint(after: after, among: sequences) })
    }
}
