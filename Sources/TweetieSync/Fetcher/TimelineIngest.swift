/// Writes API responses into the store: one write transaction per page, upserting with
/// `UpdatePolicy.modified` (identical records are not rewritten, so live queries see only real
/// changes) and keeping the `lists` membership of what is already stored.
///
/// ```swift
/// let page = try await api.timeline(of: list, cursor: TimelineCursor())
/// let report = try await TimelineIngest.ingest(page, list: list, into: store)
/// let members = try await api.members(of: list)
/// try await TimelineIngest.ingest(members, of: list, into: store)
/// ```
public enum TimelineIngest {
    /// Upserts the page's tweets and deletes its `deletedIds`, in one write transaction.
    ///
    /// Each tweet's stored `lists` becomes the sorted union of the stored tweet's lists, the
    /// incoming tweet's lists and `list.key` (when `list` is `nil`, as for a user timeline, the
    /// stored membership is kept and nothing is added). Tweets appearing twice in one page are
    /// written once; the second is counted as unchanged (or modified if it differs). A deleted id
    /// that is not stored is ignored and not counted.
    ///
    /// ```swift
    /// let report = try await TimelineIngest.ingest(page, list: ListIdentifier(username: "icanzilb", slug: "RxSwift"), into: store)
    /// print(report.inserted, report.modified, report.deleted)
    /// ```
    @discardableResult
    public static func ingest(_ page: TimelinePage, list: ListIdentifier?, into store: Store) async throws -> IngestReport {
        let key = list?.key
        let tweets = page.tweets
        let deletedIds = page.deletedIds
        let dropped = page.dropped.count
        return try await store.write { tx in
            var report = IngestReport(dropped: dropped)
            for tweet in tweets {
                var merged = tweet
                let stored = try tx.get(Tweet.self, key: tweet.id)
                merged.lists = mergedLists(stored?.lists ?? [], tweet.lists, adding: key)
                report.count(try tx.add(merged, update: .modified))
            }
            for id in deletedIds where try tx.delete(Tweet.self, key: id) {
                report.deleted += 1
            }
            return report
        }
    }

    /// Upserts the list's members, adding `list.key` to each one's `lists` (sorted union with the
    /// stored membership), in one write transaction. Users missing from the page keep their
    /// stored membership: a members page is not treated as the complete, final member set.
    ///
    /// ```swift
    /// let report = try await TimelineIngest.ingest(try await api.members(of: list), of: list, into: store)
    /// ```
    @discardableResult
    public static func ingest(_ page: MembersPage, of list: ListIdentifier, into store: Store) async throws -> IngestReport {
        let key = list.key
        let users = page.users
        let dropped = page.dropped.count
        return try await store.write { tx in
            var report = IngestReport(dropped: dropped)
            for user in users {
                var merged = user
                let stored = try tx.get(User.self, key: user.id)
                merged.lists = mergedLists(stored?.lists ?? [], user.lists, adding: key)
                report.count(try tx.add(merged, update: .modified))
            }
            return report
        }
    }

    /// The sorted, duplicate-free union of two membership lists and an optional extra key.
    static func mergedLists(_ stored: [String], _ incoming: [String], adding key: String?) -> [String] {
        var all = Set(stored)
        all.formUnion(incoming)
        if let key { all.insert(key) }
        return all.sorted()
    }
}
