import Foundation

/// The mutable state and rules of ``SimulatedTwitterSource``'s world (a value type, so the
/// actor can build it in its nonisolated initializer).
struct SimulatedWorld {
    private(set) var step = 0
    private(set) var now: Date

    struct Record {
        var tweet: Tweet
        var editedAt: Date?
        var deletedAt: Date?
    }

    private var rng: SplitMix64
    private var records: [Record] = []          // ascending by id (append-only)
    private var sequence: Int64 = 0

    static let twitterEpochMilliseconds: Int64 = 1_288_834_974_657

    init(seed: UInt64, origin: Date, initialTweets: Int, historyDays: Int) {
        now = origin
        rng = SplitMix64(seed: seed)
        let span = max(1, historyDays) * 86_400
        var offsets: [Int] = []
        for _ in 0..<max(0, initialTweets) { offsets.append(rng.int(in: 60...span)) }
        for offset in offsets.sorted(by: >) {
            post(at: origin.addingTimeInterval(-TimeInterval(offset)))
        }
    }

    mutating func advance(steps: Int) {
        for _ in 0..<max(0, steps) { advanceOneStep() }
    }

    var currentTweets: [Tweet] {
        records.reversed().filter { $0.deletedAt == nil }.map(\.tweet)
    }

    var deletedTweetIds: [Int64] {
        records.compactMap { record in record.deletedAt.map { (at: $0, id: record.tweet.id) } }
            .sorted { ($0.at, $0.id) < ($1.at, $1.id) }
            .map(\.id)
    }

    // MARK: - Serving

    func page(cursor: TimelineCursor, limit: Int, include: (Tweet) -> Bool) -> TimelinePage {
        var tweets: [Tweet] = []
        for record in records.reversed() where record.deletedAt == nil && include(record.tweet) {
            guard tweets.count < limit else { break }
            if cursor.contains(record.tweet.id) { tweets.append(record.tweet) }
        }
        var deleted: [Int64] = []
        if let sinceId = cursor.sinceId {
            let since = Self.creationDate(ofSnowflake: sinceId)
            for record in records.reversed() where include(record.tweet) {
                if let deletedAt = record.deletedAt {
                    if deletedAt >= since { deleted.append(record.tweet.id) }
                } else if let editedAt = record.editedAt, editedAt >= since, record.tweet.id <= sinceId,
                          cursor.maxId.map({ record.tweet.id <= $0 }) ?? true {
                    tweets.append(record.tweet)
                }
            }
        }
        return TimelinePage(tweets: tweets, deletedIds: deleted)
    }

    // MARK: - Evolving

    private mutating func advanceOneStep() {
        step += 1
        let previous = now
        let minutes = rng.int(in: 10...180)
        now = previous.addingTimeInterval(TimeInterval(minutes * 60))
        let newCount = rng.int(in: 0...3)
        var offsets: [Int] = []
        for _ in 0..<newCount { offsets.append(rng.int(in: 1...(minutes * 60))) }
        for offset in offsets.sorted() { post(at: previous.addingTimeInterval(TimeInterval(offset))) }

        let editCount = rng.int(in: 1...3)
        for _ in 0..<editCount {
            guard let index = randomLiveIndex() else { break }
            var tweet = records[index].tweet
            tweet.favoriteCount += rng.int(in: 1...8)
            tweet.retweetCount += rng.int(in: 0...4)
            if rng.chance(percent: 20) { tweet.text += rng.pick(SimulatedContent.edits) }
            records[index].tweet = tweet
            records[index].editedAt = now
        }
        if rng.chance(percent: 30), let index = randomLiveIndex() {
            records[index].deletedAt = now
        }
    }

    private mutating func randomLiveIndex() -> Int? {
        let live = records.indices.filter { records[$0].deletedAt == nil }
        return live.isEmpty ? nil : rng.pick(live)
    }

    private mutating func post(at date: Date) {
        let author = rng.pick(SimulatedContent.authors)
        var text = compose(author: author)
        var inReplyToId: Int64?
        var isRetweet = false
        let roll = rng.int(in: 0...99)
        let others = records.indices.filter {
            records[$0].deletedAt == nil && records[$0].tweet.authorId != author.id && !records[$0].tweet.isRetweet
        }
        if roll < 20, !others.isEmpty {
            let original = records[rng.pick(others)].tweet
            inReplyToId = original.id
            text = "@\(original.username) " + fill(rng.pick(SimulatedContent.replies))
        } else if roll < 30, !others.isEmpty {
            let original = records[rng.pick(others)].tweet
            isRetweet = true
            text = "RT @\(original.username): \(original.text)"
        }
        let id = nextSnowflake(for: date)
        let tweet = Tweet(
            id: id, text: text, name: author.name, username: author.handle, authorId: author.id,
            created: Self.creationDate(ofSnowflake: id), imageURL: SimulatedContent.imageURL(for: author),
            retweetCount: rng.int(in: 0...5), favoriteCount: rng.int(in: 0...12),
            inReplyToId: inReplyToId, isRetweet: isRetweet, lang: isRetweet ? nil : "en")
        records.append(Record(tweet: tweet))
    }

    private mutating func compose(author: SimulatedContent.Author) -> String {
        fill(rng.pick(SimulatedContent.templates)) + rng.pick(SimulatedContent.closers)
    }

    private mutating func fill(_ template: String) -> String {
        var text = template
        let topic = rng.pick(SimulatedContent.topics)
        var topic2 = rng.pick(SimulatedContent.topics)
        if topic2 == topic { topic2 = "plain old delegates" }
        let code = String((0..<10).map { _ in rng.pick(Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789")) })
        let replacements: [(String, String)] = [
            ("{topic2}", topic2), ("{topic}", topic), ("{code}", code),
            ("{fact}", rng.pick(SimulatedContent.facts)), ("{conference}", rng.pick(SimulatedContent.conferences)),
        ]
        for (placeholder, value) in replacements {
            text = text.replacingOccurrences(of: placeholder, with: value)
        }
        return text
    }

    /// A Twitter-style snowflake: milliseconds since Twitter's epoch, then 22 bits of sequence;
    /// strictly greater than every id issued before.
    private mutating func nextSnowflake(for date: Date) -> Int64 {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) - Self.twitterEpochMilliseconds
        sequence += 1
        var id = (milliseconds << 22) | (sequence & 0x3F_FFFF)
        if let last = records.last?.tweet.id, id <= last { id = last + 1 }
        return id
    }

    /// The creation time a snowflake id encodes (whole seconds, like Twitter's `created_at`).
    static func creationDate(ofSnowflake id: Int64) -> Date {
        let milliseconds = (id >> 22) + twitterEpochMilliseconds
        return Date(timeIntervalSince1970: TimeInterval(milliseconds / 1000))
    }
}
