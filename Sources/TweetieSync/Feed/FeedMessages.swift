/// A feed's messages as an `AsyncSequence` (``ChangeFeed/messages(moves:)``,
/// ``ChangeFeed/messages(after:moves:)``): each iteration observes the store afresh.
///
/// ```swift
/// for try await message in feed.messages() { print(message.type, message.sequence) }
/// ```
public struct FeedMessages<Row: Codable & Sendable & Hashable>: AsyncSequence, Sendable {
    /// Each element: one message.
    public typealias Element = FeedMessage<Row>
    /// Errors from reading the store.
    public typealias Failure = any Error

    let feed: ChangeFeed<Row>
    let moves: Bool
    /// The position the renderer holds when resuming.
    let after: ChangeLogPosition?

    /// Starts observing.
    ///
    /// ```swift
    /// let iterator = feed.messages().makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator {
        var builder = FeedBuilder<Row>(feed: feed.name, moves: moves)
        if after != nil { builder.resuming() }
        return Iterator(updates: feed.updates, builder: builder, after: after)
    }

    /// Produces the elements of ``FeedMessages``.
    ///
    /// ```swift
    /// let snapshot = try await iterator.next()
    /// ```
    public final class Iterator: AsyncIteratorProtocol {
        private let updates: SectionedUpdates<Row>
        private let base: SectionedUpdates<Row>.Iterator
        private var builder: FeedBuilder<Row>
        private var after: ChangeLogPosition?

        init(updates: SectionedUpdates<Row>, builder: FeedBuilder<Row>, after: ChangeLogPosition?) {
            self.updates = updates
            base = updates.makeAsyncIterator()
            self.builder = builder
            self.after = after
        }

        /// The next message; `nil` when the consuming task is cancelled.
        ///
        /// ```swift
        /// while let message = try await iterator.next() { send(message) }
        /// ```
        public func next() async throws -> FeedMessage<Row>? {
            while let update = try await base.next() {
                if let after {
                    self.after = nil
                    // The first update is a snapshot: a renderer that holds its sections skips it.
                    if try updates.resumePoint(after: after, among: [update.sequence]) != nil { continue }
                }
                return builder.message(for: update)
            }
            return nil
        }
    }
}

extension SectionedUpdates {
    /// Where a renderer at `after` resumes among `sequences`, the positions a feed delivered
    /// (oldest first): the first at or after `after`, when the renderer holds its sections
    /// (``unchanged(after:through:)``), so that it needs exactly the messages after it; `nil`
    /// when it needs a snapshot. The one resume rule of every feed reader (``FeedMessages``, a
    /// server's history of messages).
    ///
    /// ```swift
    /// if let point = try feed.updates.resumePoint(after: lastApplied, among: delivered) { send(messages(after: point)) }
    /// ```
    public func resumePoint(after: ChangeLogPosition, among sequences: some Sequence<UInt64>) throws -> UInt64? {
        guard let candidate = sequences.first(where: { $0 >= after.sequence }) else { return nil }
        return try unchanged(after: after, through: candidate) ? candidate : nil
    }

    /// Whether a renderer at `after` holds the sections of `sequence`: `after` is a point of the
    /// store's own history (`StoreReader.contains(_:)`: not a position from before a restore,
    /// nor one without its commit id), the change log still holds every entry after it up to
    /// `sequence`, and none names a record of the observed collection.
    ///
    /// ```swift
    /// if try feed.updates.unchanged(after: lastApplied, through: 57) { send(messagesAfter57) }
    /// ```
    public func unchanged(after: ChangeLogPosition, through sequence: UInt64) throws -> Bool {
        guard after.sequence <= sequence else { return false }
        return try store.read { reader in
            guard try reader.contains(after) else { return false }
            guard after.sequence < sequence else { return true }
            let slice = try reader.changeLog(after: after.sequence)
            guard !slice.isTruncated else { return false }
            return !slice.entries.contains {
                $0.sequence <= sequence && ($0.unlistedCollections.contains(collection) || !($0.changes[collection] ?? []).isEmpty)
            }
        }
    }
}
