/// A renderer's copy of a change feed: replaced by snapshots, updated by changes.
///
/// This is the reference renderer: applying every message of `tweetie-db feed --follow` in order
/// ends with exactly the sections that `tweetie-db feed --once` prints.
///
/// ```swift
/// var state = FeedState<TimelineRow>()
/// for line in lines { try state.apply(try decoder.decode(FeedMessage<TimelineRow>.self, from: line)) }
/// print(state.sections.map(\.title))
/// ```
public struct FeedState<Row: Codable & Sendable & Hashable>: Sendable, Hashable {
    /// The current sections.
    ///
    /// ```swift
    /// print(state.sections.count)
    /// ```
    public private(set) var sections: [FeedSection<Row>] = []
    /// The sequence of the last applied message.
    ///
    /// ```swift
    /// print(state.sequence)
    /// ```
    public var sequence: UInt64 { position.sequence }
    /// The position of the last applied message: what to resume from (`--after`, `Last-Event-ID`).
    ///
    /// ```swift
    /// let messages = feed.messages(after: state.position)
    /// ```
    public private(set) var position = ChangeLogPosition.origin
    /// The window of the last applied message of a feed with a limit: at most `limit` rows are
    /// held, and `more` says whether the feed goes on after them; `nil` for a feed without one.
    ///
    /// ```swift
    /// loadOlder.isHidden = state.window?.more != true
    /// ```
    public private(set) var window: FeedMessage<Row>.Window?

    /// An empty state, before the first snapshot.
    ///
    /// ```swift
    /// var state = FeedState<TimelineRow>()
    /// ```
    public init() {}

    /// A malformed message: out-of-range index paths or a change before any snapshot.
    public struct InvalidMessage: Error, CustomStringConvertible, Sendable {
        /// What was wrong.
        public var description: String
    }

    /// Applies one message.
    ///
    /// ```swift
    /// try state.apply(message)
    /// ```
    public mutating func apply(_ message: FeedMessage<Row>) throws {
        guard message.version == FeedMessage<Row>.formatVersion else {
            throw InvalidMessage(description: "feed format version \(message.version); this renderer reads version \(FeedMessage<Row>.formatVersion)")
        }
        guard message.position.sequence == message.sequence else {
            throw InvalidMessage(description: "position \(message.position) does not name the message's sequence \(message.sequence)")
        }
        if message.type == .snapshot {
            let rows = message.sections ?? []
            try Self.check(message.window, holds: rows.reduce(0) { $0 + $1.rows.count })
            sections = rows
            position = message.position
            window = message.window
            return
        }
        let changeset = SectionedChangeset(
            sectionDeletions: message.sectionDeletions ?? [],
            sectionInsertions: (message.sectionInsertions ?? []).map(\.index),
            sectionMoves: (message.sectionMoves ?? []).map { Move(from: $0.from, to: $0.to) },
            rowDeletions: try (message.rowDeletions ?? []).map(Self.path),
            rowInsertions: try (message.rowInsertions ?? []).map { try Self.path($0.at) },
            rowModificationsInOld: try (message.rowModifications ?? []).map { try Self.path($0.old) },
            rowModificationsInNew: try (message.rowModifications ?? []).map { try Self.path($0.new) },
            rowMoves: try (message.rowMoves ?? []).map { RowMove(from: try Self.path($0.from), to: try Self.path($0.to)) })
        var newRows: [RowPath: Row] = [:]
        for insertion in message.rowInsertions ?? [] { newRows[try Self.path(insertion.at)] = insertion.row }
        for modification in message.rowModifications ?? [] { newRows[try Self.path(modification.new)] = modification.row }
        for move in message.rowMoves ?? [] { newRows[try Self.path(move.to)] = move.row }
        let inserted = Dictionary((message.sectionInsertions ?? []).map { ($0.index, $0.section) }, uniquingKeysWith: { a, _ in a })

        // Section identities follow the same steps as the rows (see SectionedChangeset).
        let removed = Set(changeset.sectionDeletions + changeset.sectionMoves.map(\.from))
        let oldCount = sections.count
        for index in removed where index < 0 || index >= oldCount {
            throw InvalidMessage(description: "section \(index) does not exist (there are \(oldCount))")
        }
        let newCount = oldCount - removed.count + inserted.count + changeset.sectionMoves.count
        var moved: [Int: Int] = [:]
        for move in changeset.sectionMoves { moved[move.to] = move.from }
        var remaining = (0..<oldCount).filter { !removed.contains($0) }[...]
        var layout: [FeedSection<Row>] = []
        for index in 0..<newCount {
            if let section = inserted[index] {
                layout.append(FeedSection(key: section.key, title: section.title, rows: []))
            } else if let from = moved[index] {
                layout.append(FeedSection(key: sections[from].key, title: sections[from].title, rows: []))
            } else if let from = remaining.popFirst() {
                layout.append(FeedSection(key: sections[from].key, title: sections[from].title, rows: []))
            } else {
                throw InvalidMessage(description: "the change leaves no section for new index \(index)")
            }
        }
        for (section, rows) in sections.enumerated() {
            for row in changeset.rowDeletions + changeset.rowMoves.map(\.from) where row.section == section {
                guard row.row >= 0 && row.row < rows.rows.count else {
                    throw InvalidMessage(description: "row \(row) does not exist")
                }
            }
        }
        // Every path the apply asks for (insertions, move targets, modifications) carries its row.
        let rows = changeset.apply(to: sections.map { Array($0.rows) }, insertedSection: { inserted[$0].map { Array($0.rows) } ?? [] }) { newRows[$0]! }
        guard rows.count == layout.count else {
            throw InvalidMessage(description: "the change produces \(rows.count) sections of rows but \(layout.count) section headers")
        }
        for index in layout.indices { layout[index].rows = FeedList(rows[index]) }
        try Self.check(message.window, holds: rows.reduce(0) { $0 + $1.count })
        for path in try (message.windowEntered ?? []).map(Self.path) where !layout.indices.contains(path.section) || !rows[path.section].indices.contains(path.row) {
            throw InvalidMessage(description: "windowEntered names row \(path), which the change does not produce")
        }
        for path in try (message.windowLeft ?? []).map(Self.path) where !sections.indices.contains(path.section) || !sections[path.section].rows.indices.contains(path.row) {
            throw InvalidMessage(description: "windowLeft names row \(path), which did not exist")
        }
        sections = layout
        position = message.position
        window = message.window
    }

    /// Checks that a message's sections fit its window.
    private static func check(_ window: FeedMessage<Row>.Window?, holds rowCount: Int) throws {
        guard let window else { return }
        guard window.limit >= 0 else { throw InvalidMessage(description: "a window's limit must not be negative, got \(window.limit)") }
        guard rowCount <= window.limit else {
            throw InvalidMessage(description: "the message leaves \(rowCount) rows in a window of \(window.limit)")
        }
    }

    private static func path(_ path: FeedPath) throws -> RowPath {
        guard path.count == 2 else { throw InvalidMessage(description: "an index path must be [section, row], got \(path)") }
        return RowPath(section: path[0], row: path[1])
    }
}
