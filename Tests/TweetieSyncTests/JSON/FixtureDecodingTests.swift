import Foundation
import Testing
@testable import TweetieSync

@Suite("Captured fixtures decode", .enabled(if: Fixtures.isAvailable, Fixtures.disabledReason))
struct FixtureDecodingTests {
    @Test func allStatusFilesDecodeCompletely() throws {
        var all: [Tweet] = []
        var counts: [String: Int] = [:]
        for file in Fixtures.statusFiles {
            let data = try Fixtures.data(file)
            let batch = try TwitterJSON.decodeStatuses(data, source: file)
            #expect(batch.dropped.isEmpty, "\(file): \(batch.dropped)")
            // Every element of the raw file must come through.
            let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
            #expect(batch.items.count == raw.count, "\(file)")
            counts[file] = batch.items.count
            all += batch.items
        }
        #expect(all.count == 318)
        #expect(Set(all.map(\.id)).count == 304)
        #expect(counts[Fixtures.listTimelineFile] == 19)
        #expect(counts[Fixtures.nextPageFile] == 0)
        #expect(counts[Fixtures.userTimelineFile("ashfurrow")] == 99)
    }

    @Test func idsAgreeWithIdStrAndDatesWithDateFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        var checked = 0
        for file in Fixtures.statusFiles {
            let data = try Fixtures.data(file)
            let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            let tweets = try TwitterJSON.decodeStatuses(data, source: file).items
            for (object, tweet) in zip(raw, tweets) {
                #expect(String(tweet.id) == object["id_str"] as? String)
                let user = try #require(object["user"] as? [String: Any])
                #expect(String(tweet.authorId) == user["id_str"] as? String)
                let created = try #require(object["created_at"] as? String)
                #expect(tweet.created == formatter.date(from: created), "\(created)")
                #expect(tweet.isRetweet == (object["retweeted_status"] != nil))
                checked += 1
            }
        }
        #expect(checked == 318)
    }

    @Test func knownTweetMatchesTheRawFile() throws {
        let data = try Fixtures.data(Fixtures.listTimelineFile)
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let object = try #require(raw.first { ($0["id_str"] as? String) == "1071325319259414528" })
        let user = try #require(object["user"] as? [String: Any])
        let tweets = try TwitterJSON.decodeStatuses(data, source: "list").items
        let tweet = try #require(tweets.first { $0.id == 1071325319259414528 })
        #expect(tweet.text == object["text"] as? String)
        #expect(tweet.text.hasPrefix("I think I need to make a whole talk about GRDB"))
        #expect(tweet.name == user["name"] as? String)
        #expect(tweet.username == user["screen_name"] as? String)
        #expect(tweet.imageURL == user["profile_image_url_https"] as? String)
        #expect(tweet.retweetCount == object["retweet_count"] as? Int)
        #expect(tweet.favoriteCount == object["favorite_count"] as? Int)
        #expect(tweet.lang == object["lang"] as? String)
        #expect(tweet.inReplyToId == nil)
        #expect(tweet.created == TwitterDate.parse("Sat Dec 08 08:47:15 +0000 2018"))
    }

    @Test func membersDecodeWithNullURL() throws {
        let batch = try TwitterJSON.decodeMembers(try Fixtures.data(Fixtures.membersFile), source: "members")
        #expect(batch.dropped.isEmpty)
        #expect(batch.items.count == 8)
        let mandar = try #require(batch.items.first { $0.username == "mandarazeware" })
        #expect(mandar.url == "")
        let bonto = try #require(batch.items.first { $0.username == "bontoJR" })
        #expect(bonto.id == 39968020)
        #expect(bonto.name == "Junior B.")
        #expect(bonto.url == "https://t.co/XiX3J9O2PH")
        #expect(bonto.about.hasPrefix("Co-author of Reactive Programming with Swift"))
        #expect(batch.items.allSatisfy { $0.imageURL.hasPrefix("https://") })
    }
}
