import Foundation

/// An index path in a feed: `[section, row]`.
///
/// ```json
/// [0, 3]
/// ```
public typealias FeedPath = [Int]

/// One line of a change feed (NDJSON): a snapshot or a change. See `schemas/tweetie-feed.schema.json`.
///
/// A renderer keeps a copy of the sections: it replaces its copy on every snapshot and applies
/// every change in order (``FeedState`` does exactly that).
///
/// ```swift
/// let message = try JSONDecoder().decode(FeedMessage<TimelineRow>.self, from: line)
/// ```
public struct FeedMessage<Row: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// A section inserted by a change, with all its rows.
    public struct SectionInsertion: Codable, Sendable, Hashable {
        /// The section's index in the new sections.
        public var index: Int
        /// The section, complete.
        public var section: FeedSection<Row>
    }

    /// A section moved by a change (old index → new index).
    public struct SectionMove: Codable, Sendable, Hashable {
        /// The old index.
        public var from: Int
        /// The new index.
        public var to: Int
    }

    /// A row inserted at a new index path.
    public struct RowInsertion: Codable, Sendable, Hashable {
        /// The new index path.
        public var at: FeedPath
        /// The row's contents.
        public var row: Row
    }

    /// A row whose contents changed in place: where it was, where it is now, its new contents.
    public struct RowModification: Codable, Sendable, Hashable {
        /// The old index path.
        public var old: FeedPath
        /// The new index path.
        public var new: FeedPath
        /// The row's new contents.
        public var row: Row
    }

    /// A row that moved: old index path → new index path, with its (possibly new) contents.
    public struct RowMove: Codable, Sendable, Hashable {
        /// The old index path.
        public var from: FeedPath
        /// The new index path.
        public var to: FeedPath
        /// The row's contents at its new place.
        public var row: Row
    }

    /// The window of a feed with a limit, on each of its messages: the most rows the sections
    /// hold, and whether more rows follow the last one.
    public struct Window: Codable, Sendable, Hashable {
        /// The most rows the sections hold, over all sections.
        public var limit: Int
        /// Whether the feed's rows go on after the sections' last row ("load older").
        public var more: Bool

        /// A window of at most `limit` rows.
        ///
        /// ```swift
        /// let window = FeedMessage<TimelineRow>.Window(limit: 100, more: true)
        /// ```
        public init(limit: Int, more: Bool) {
            self.limit = limit
            self.more = more
        }
    }

    /// The feed format version every message of this format carries: 4 (a feed may have a
    /// ``window``; version 3 added the history ``position``, version 2 decimal-string row ids).
    ///
    /// ```swift
    /// guard message.version == FeedMessage<TimelineRow>.formatVersion else { … }
    /// ```
    public static var formatVersion: Int { 4 }

    /// The format version of this message, ``formatVersion`` for every message written.
    ///
    /// ```swift
    /// print(message.version)   // 3
    /// ```
    public var version: Int
    /// `snapshot` or `change`.
    ///
    /// ```swift
    /// if message.type == .snapshot { … }
    /// ```
    public var type: FeedMessageKind
    /// The feed's name (`list icanzilb/RxSwift`, `person icanzilb`, `people icanzilb/RxSwift`).
    public var feed: String
    /// The database change-log sequence the message brings the renderer to. Sequences strictly
    /// increase within one stream but may skip: one change may carry several commits.
    public var sequence: UInt64
    /// The history position the message brings the renderer to: ``sequence`` and the commit that
    /// wrote it (`14.5f3a9c0e12ab34cd`). A renderer resumes from this, never from the bare
    /// sequence: a database restored from a backup reaches the same sequences with other commits.
    public var position: ChangeLogPosition
    /// For a snapshot: `initial`, or `reset` when the feed fell behind the change log and starts over.
    public var reason: FeedSnapshotReason?
    /// For a snapshot: every section, complete.
    public var sections: [FeedSection<Row>]?
    /// For a change: old section indices to delete (with their rows).
    public var sectionDeletions: [Int]?
    /// For a change: new sections, at new indices, with all their rows.
    public var sectionInsertions: [SectionInsertion]?
    /// For a change: sections that moved.
    public var sectionMoves: [SectionMove]?
    /// For a change: old index paths of deleted rows.
    public var rowDeletions: [FeedPath]?
    /// For a change: inserted rows at new index paths.
    public var rowInsertions: [RowInsertion]?
    /// For a change: rows changed in place.
    public var rowModifications: [RowModification]?
    /// For a change: rows that moved.
    public var rowMoves: [RowMove]?
    /// For every message of a feed with a limit: its window; absent for a feed without one.
    public var window: Window?
    /// For a change of a feed with a limit: the new index paths of rows, unchanged by the commits,
    /// that came into the window from beyond its end. Each is also inserted by the change (in
    /// ``rowInsertions``, or inside one of ``sectionInsertions``); this only says the row was
    /// there all along.
    public var windowEntered: [FeedPath]?
    /// For a change of a feed with a limit: the old index paths of rows, unchanged by the commits,
    /// that went beyond the window's end (they are still in the feed). Each is also deleted by the
    /// change (in ``rowDeletions``, or inside one of ``sectionDeletions``).
    public var windowLeft: [FeedPath]?

    /// A snapshot message.
    ///
    /// ```swift
    /// let message = FeedMessage(snapshot: sections, feed: "list icanzilb/RxSwift", position: update.position)
    /// ```
    public init(snapshot sections: [FeedSection<Row>], feed: String, position: ChangeLogPosition, reason: FeedSnapshotReason = .initial) {
        version = Self.formatVersion
        type = .snapshot
        self.feed = feed
        sequence = position.sequence
        self.position = position
        self.reason = reason
        self.sections = sections
    }

    /// An empty change message, to be filled.
    ///
    /// ```swift
    /// var message = FeedMessage<TimelineRow>(changeFor: "list icanzilb/RxSwift", position: update.position)
    /// ```
    public init(changeFor feed: String, position: ChangeLogPosition) {
        version = Self.formatVersion
        type = .change
        self.feed = feed
        sequence = position.sequence
        self.position = position
        sectionDeletions = []
        sectionInsertions = []
        sectionMoves = []
        rowDeletions = []
        rowInsertions = []
        rowModifications = []
        rowMoves = []
    }
}
