/// How a timeline groups its rows into sections.
///
/// ```swift
/// let feed = ChangeFeed.list(list, store: store, sections: .none, now: Date())
/// ```
public enum FeedSectioning: String, Sendable, CaseIterable {
    /// One section per UTC day (key `yyyy-MM-dd`), newest day first.
    case day
    /// One section, key `all`, title `All`, holding every row.
    case none
}
