/// One delivery of a view model's live sections: the table-ready sections and the sectioned
/// changeset from the previous delivery. A change feed message is this, serialized
/// (``FeedBuilder``).
///
/// The changeset maps 1:1 onto ``sections``: applying it (`SectionedChangeset.apply(to:insertedSection:newElement:)`)
/// to the previous delivery's rows, taking new rows from these sections, gives these sections'
/// rows. Rows are identified by record id and compared by content; a timeline's
/// ``TimelineRow/relativeTime`` is recomputed for *every* row on each delivery, so a row the
/// changeset does not mention may still show a newer relative time — take it from the new
/// sections (or re-render visible rows).
///
/// ```swift
/// for try await update in viewModel.tweets {
///     if update.isInitial { table.reload(update.sections) }
///     else { table.apply(update.changeset, sections: update.sections) }
/// }
/// ```
public struct SectionedUpdate<Row: Codable & Sendable & Hashable>: Sendable {
    /// Every section, in display order, made when read (``FeedList``), with rows made when read.
    ///
    /// ```swift
    /// print(update.sections.map(\.title))
    /// ```
    public var sections: FeedList<FeedSection<Row>>
    /// How the previous delivery's sections became these; empty when ``isInitial``.
    ///
    /// ```swift
    /// print(update.changeset.rowInsertions)
    /// ```
    public var changeset: SectionedChangeset
    /// Whether to reload instead of animating (first delivery, or the observer fell behind the log).
    ///
    /// ```swift
    /// if update.isInitial { table.reloadData() }
    /// ```
    public var isInitial: Bool
    /// The store's history position these sections reflect (a sequence and the commit that wrote
    /// it): what a renderer resumes from.
    ///
    /// ```swift
    /// print(update.position)   // 14.5f3a9c0e12ab34cd
    /// ```
    public var position: ChangeLogPosition
    /// The store's change-log sequence these sections reflect.
    ///
    /// ```swift
    /// print(update.sequence)
    /// ```
    public var sequence: UInt64 { position.sequence }
    /// For updates made with a limit: the window's limit, whether older rows follow it, and the
    /// rows that crossed its end (see `ObservationWindow`); `nil` without a limit.
    ///
    /// ```swift
    /// loadOlderButton.isHidden = update.window?.hasMore != true
    /// ```
    public var window: ObservationWindow?

    /// Creates an update.
    ///
    /// ```swift
    /// let update = TimelineUpdate(sections: [], changeset: SectionedChangeset(), isInitial: true, position: .origin)
    /// ```
    public init(sections: [FeedSection<Row>], changeset: SectionedChangeset, isInitial: Bool, position: ChangeLogPosition) {
        self.init(sections: FeedList(sections), changeset: changeset, isInitial: isInitial, position: position)
    }

    /// Creates an update whose sections are made when read.
    ///
    /// ```swift
    /// let update = TimelineUpdate(sections: FeedList(count: 0) { _ in fatalError() }, changeset: SectionedChangeset(), isInitial: true, position: .origin)
    /// ```
    public init(sections: FeedList<FeedSection<Row>>, changeset: SectionedChangeset, isInitial: Bool, position: ChangeLogPosition) {
        self.sections = sections
        self.changeset = changeset
        self.isInitial = isInitial
        self.position = position
    }

    /// The total number of rows, O(S log S) for S sections (no row is made).
    ///
    /// ```swift
    /// print(update.rowCount)
    /// ```
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// The row at `path`, made in O(log n).
    ///
    /// ```swift
    /// let row = update.row(at: RowPath(section: 0, row: 0))
    /// ```
    public func row(at path: RowPath) -> Row {
        sections[path.section].rows[path.row]
    }
}

/// One delivery of a timeline (``ListTimelineViewModel/tweets``): day sections of tweet rows.
///
/// ```swift
/// for try await update in viewModel.tweets { print(update.rowCount) }
/// ```
public typealias TimelineUpdate = SectionedUpdate<TimelineRow>
