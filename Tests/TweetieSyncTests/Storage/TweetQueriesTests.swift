import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

@Suite("TweetQueries.timeline")
struct TweetQueriesTests {
    /// 300 tweets by 30 authors, in groups of four created at the same instant (ties the pages
    /// must break by id), stored in a new database.
    static func store(_ dir: TemporaryDirectory) throws -> Store {
        var tweets = SyntheticTweets(seed: 11).make(count: 300)
        let origin = tweets[0].created
        for i in tweets.indices { tweets[i].created = origin.addingTimeInterval(Double(i / 4) * 60) }
        let store = try TweetieDatabase.open(at: dir.sub("db"))
        try store.write { try $0.add(contentsOf: tweets, update: .all) }
        return store
    }

    /// Reads a timeline `pageSize` tweets at a time with `after:`, each page its own read.
    static func paged(_ store: Store, pageSize: Int, _ timeline: (Tweet?, Int) -> Query<Tweet>) throws -> [Int64] {
        var ids: [Int64] = [], last: Tweet?
        while true {
            let page = try store.read { try $0.fetch(timeline(last, pageSize)) }
            if page.isEmpty { return ids }
            ids += page.map(\.id)
            last = page.last
        }
    }

    @Test(arguments: [1, 3, 4, 7, 50])
    func pagingWithAfterGivesTheWholeTimelineOnce(pageSize: Int) throws {
        let dir = TemporaryDirectory("tweet-queries")
        defer { dir.remove() }
        let store = try Self.store(dir)
        defer { store.close() }
        let origin = Date(timeIntervalSince1970: 1_544_259_600)
        let since = origin.addingTimeInterval(10 * 60), until = origin.addingTimeInterval(60 * 60)
        let cases: [(author: String?, since: Date?, until: Date?, text: String?)] = [
            (nil, nil, nil, nil), ("Author3", nil, nil, nil), (nil, since, until, nil), ("author3", since, until, nil), (nil, nil, until, "a"),
        ]
        for c in cases {
            let whole = try store.read { try $0.fetch(TweetQueries.timeline(author: c.author, since: c.since, until: c.until, containing: c.text)) }.map(\.id)
            #expect(!whole.isEmpty, "\(c)")
            let paged = try Self.paged(store, pageSize: pageSize) { last, size in
                TweetQueries.timeline(author: c.author, since: c.since, until: c.until, containing: c.text, after: last, limit: size)
            }
            #expect(paged == whole, "\(c)")
        }
    }

    @Test func tiesAreOrderedByAscendingID() throws {
        let dir = TemporaryDirectory("tweet-queries")
        defer { dir.remove() }
        let store = try Self.store(dir)
        defer { store.close() }
        let all = try store.read { try $0.fetch(TweetQueries.timeline()) }
        #expect(Array(all.prefix(4).map(\.id)) == [297, 298, 299, 300])
        // After the second tweet of the newest instant come the other two, then the next instant.
        let after = try store.read { try $0.fetch(TweetQueries.timeline(after: all[1], limit: 3)) }.map(\.id)
        #expect(after == [299, 300, 293])
    }
}
