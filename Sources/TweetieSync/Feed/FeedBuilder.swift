/// Serializes a view model's deliveries as feed messages: the first delivery becomes a snapshot
/// (`initial`), every later changeset a `change` with the row contents a renderer needs (inserted,
/// modified and moved rows; inserted sections in full), and a fresh start after falling behind
/// the change log a snapshot again (`reset`).
///
/// ``ChangeFeed/messages(moves:)`` uses it; use it directly to serialize a view model you observe
/// yourself.
///
/// ```swift
/// var builder = FeedBuilder<TimelineRow>(feed: "list icanzilb/RxSwift")
/// for try await update in viewModel.tweets {
///     let message = builder.message(for: update)
///     print(String(decoding: try RecordJSON.encoder().encode(message), as: UTF8.self))
/// }
/// ```
public struct FeedBuilder<Row: Codable & Sendable & Hashable>: Sendable {
    /// The feed's name, carried by every message (`list icanzilb/RxSwift`).
    ///
    /// ```swift
    /// print(builder.feed)
    /// ```
    public let feed: String
    /// Whether moved rows and sections stay moves; `false` expresses them as deletion + insertion
    /// (for renderers without moves).
    ///
    /// ```swift
    /// let builder = FeedBuilder<TimelineRow>(feed: name, moves: false)
    /// ```
    public let moves: Bool
    /// Whether the next snapshot is the first one (then its reason is `initial`, else `reset`).
    private var isFirst = true

    /// A builder for the feed named `feed`.
    ///
    /// ```swift
    /// var builder = FeedBuilder<PersonRow>(feed: "people icanzilb/RxSwift", moves: false)
    /// ```
    public init(feed: String, moves: Bool = true) {
        self.feed = feed
        self.moves = moves
    }

    /// Makes the next snapshot a `reset` rather than the `initial` one: the renderer already holds
    /// an earlier state of this feed (it resumes).
    ///
    /// ```swift
    /// builder.resuming()
    /// ```
    public mutating func resuming() {
        isFirst = false
    }

    /// The snapshot of a delivery's sections, whatever the delivery (`reason` `initial` or
    /// `reset`): what a client that joins after it, or fell behind, gets.
    ///
    /// ```swift
    /// let message = builder.snapshot(of: update, reason: .reset)
    /// ```
    public func snapshot(of update: SectionedUpdate<Row>, reason: FeedSnapshotReason) -> FeedMessage<Row> {
        var message = FeedMessage(snapshot: Array(update.sections), feed: feed, position: update.position, reason: reason)
        message.window = Self.window(of: update)
        return message
    }

    private static func window(of update: SectionedUpdate<Row>) -> FeedMessage<Row>.Window? {
        update.window.map { .init(limit: $0.limit, more: $0.hasMore) }
    }

    /// The message for one delivery: a snapshot for an initial one, else a change.
    ///
    /// ```swift
    /// let message = builder.message(for: update)
    /// if message.type == .snapshot { print(message.sections?.count ?? 0, "sections") }
    /// ```
    public mutating func message(for update: SectionedUpdate<Row>) -> FeedMessage<Row> {
        if update.isInitial {
            defer { isFirst = false }
            return snapshot(of: update, reason: isFirst ? .initial : .reset)
        }
        // Only the rows the change names are made (O(k log n)); inserted sections are carried whole.
        let sections = update.sections
        let changeset = moves ? update.changeset : update.changeset.withoutMoves()
        func path(_ p: RowPath) -> FeedPath { [p.section, p.row] }
        var message = FeedMessage<Row>(changeFor: feed, position: update.position)
        message.sectionDeletions = changeset.sectionDeletions
        message.sectionInsertions = changeset.sectionInsertions.map { .init(index: $0, section: sections[$0]) }
        message.sectionMoves = changeset.sectionMoves.map { .init(from: $0.from, to: $0.to) }
        message.rowDeletions = changeset.rowDeletions.map(path)
        message.rowInsertions = changeset.rowInsertions.map { .init(at: path($0), row: update.row(at: $0)) }
        message.rowModifications = zip(changeset.rowModificationsInOld, changeset.rowModificationsInNew).map {
            .init(old: path($0), new: path($1), row: update.row(at: $1))
        }
        message.rowMoves = changeset.rowMoves.map { .init(from: path($0.from), to: path($0.to), row: update.row(at: $0.to)) }
        message.window = Self.window(of: update)
        if let window = update.window {
            message.windowEntered = window.entered.map(path)
            message.windowLeft = window.left.map(path)
        }
        return message
    }
}
