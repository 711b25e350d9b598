import Foundation
import Testing
@testable import TweetieSync

@Suite("TwitterJSON (in-code JSON)")
struct TwitterJSONTests {
    typealias Build = TwitterJSONBuilder

    @Test func decodesStatusFields() throws {
        let original = Build.status(id: 1071000000000000001, text: "original", userId: 9)
        let json = [
            Build.status(id: 1071325319259414528, text: "I think", created: "Fri Dec 07 17:28:51 +0000 2018",
                         userId: 39968020, retweets: 3, favorites: 14, inReplyTo: 1071090321952518145),
            Build.status(id: 1071325319259414529, text: "RT @user9: original", retweeted: original),
        ]
        let batch = try TwitterJSON.decodeStatuses(try Build.data(json), source: "test")
        #expect(batch.dropped.isEmpty)
        #expect(batch.items.count == 2)
        let first = try #require(batch.items.first)
        #expect(first.id == 1071325319259414528)
        #expect(first.text == "I think")
        #expect(first.name == "User 39968020")
        #expect(first.username == "user39968020")
        #expect(first.authorId == 39968020)
        #expect(first.created == TwitterDate.parse("Fri Dec 07 17:28:51 +0000 2018"))
        #expect(first.imageURL == "https://pbs.twimg.com/profile_images/39968020/a_normal.jpg")
        #expect(first.retweetCount == 3 && first.favoriteCount == 14)
        #expect(first.inReplyToId == 1071090321952518145)
        #expect(first.isRetweet == false)
        #expect(first.lang == "en")
        #expect(batch.items[1].isRetweet)
        #expect(batch.items[1].inReplyToId == nil)
    }

    @Test func acceptsFullTextInsteadOfText() throws {
        var status = Build.status(id: 5)
        status["text"] = nil
        status["full_text"] = "the full text"
        let batch = try TwitterJSON.decodeStatuses(try Build.data([status]), source: "test")
        #expect(batch.items.map(\.text) == ["the full text"])
    }

    @Test func dropsAndReportsBadElements() throws {
        var noUser = Build.status(id: 2)
        noUser["user"] = nil
        let badDate = Build.status(id: 3, created: "2018-12-08 08:47:15")
        var idMismatch = Build.status(id: 4)
        idMismatch["id_str"] = "5"
        var nullCount = Build.status(id: 6)
        nullCount["retweet_count"] = NSNull()
        let json: [Any] = [
            Build.status(id: 1), noUser, badDate, "not an object", idMismatch, nullCount, Build.status(id: 7),
        ]
        let batch = try TwitterJSON.decodeStatuses(try Build.data(json), source: "test")
        #expect(batch.items.map(\.id) == [1, 7])
        #expect(batch.dropped.map(\.index) == [1, 2, 3, 4, 5])
        #expect(batch.dropped.map(\.id) == [2, 3, nil, 4, 6])
        #expect(batch.dropped[0].reason.contains("user"))
        #expect(batch.dropped[1].reason.contains("created_at"))
        #expect(batch.dropped[2].reason.contains("the element"))
        #expect(batch.dropped[3].reason.contains("id_str"))
        #expect(batch.dropped[4].reason.contains("retweet_count"))
        #expect(batch.dropped[0].description.hasPrefix("element 1 (id 2): "))
    }

    @Test func statusesRejectNonArrayTopLevel() throws {
        let object = try Build.data(["users": [Build.user(id: 1, name: "A", screenName: "a")]])
        let error = try #require(throws: TwitterAPIError.self) {
            try TwitterJSON.decodeStatuses(object, source: "lists/statuses.json")
        }
        guard case .malformedJSON(let source, let reason) = error else {
            Issue.record("unexpected error \(error)"); return
        }
        #expect(source == "lists/statuses.json")
        #expect(reason.contains("array"))
    }

    @Test func rejectsInvalidJSON() throws {
        let error = try #require(throws: TwitterAPIError.self) {
            try TwitterJSON.decodeStatuses(Data("[{\"id\": 1,".utf8), source: "file.json")
        }
        guard case .malformedJSON(let source, let reason) = error else {
            Issue.record("unexpected error \(error)"); return
        }
        #expect(source == "file.json")
        #expect(reason.contains("not valid JSON"))
        #expect(error.description.contains("file.json"))
    }

    @Test func decodesMembersWithNullURLAndDropsBadOnes() throws {
        var noName = Build.user(id: 3, name: "x", screenName: "c")
        noName["name"] = nil
        let json = ["users": [
            Build.user(id: 1, name: "Ann", screenName: "ann", description: "bio", url: "https://t.co/x"),
            Build.user(id: 2, name: "Bob", screenName: "bob", description: nil, url: nil),
            noName,
        ]]
        let batch = try TwitterJSON.decodeMembers(try Build.data(json), source: "members")
        #expect(batch.items == [
            User(id: 1, name: "Ann", username: "ann", about: "bio", url: "https://t.co/x",
                 imageURL: "https://pbs.twimg.com/profile_images/1/a_normal.jpg"),
            User(id: 2, name: "Bob", username: "bob", about: "", url: "",
                 imageURL: "https://pbs.twimg.com/profile_images/2/a_normal.jpg"),
        ])
        #expect(batch.dropped == [DroppedElement(index: 2, id: 3, reason: "missing key 'name'")])
    }

    @Test func membersRejectArrayOrMissingUsers() throws {
        #expect(throws: TwitterAPIError.self) {
            try TwitterJSON.decodeMembers(try Build.data([Build.user(id: 1, name: "A", screenName: "a")]), source: "m")
        }
        #expect(throws: TwitterAPIError.self) {
            try TwitterJSON.decodeMembers(try Build.data(["next_cursor": 0]), source: "m")
        }
    }

    @Test func storageCodableUsesPropertyNames() throws {
        let tweet = Tweet(id: 42, text: "t", name: "N", username: "u", authorId: 7,
                          created: Date(timeIntervalSince1970: 1_544_259_600), imageURL: "i",
                          retweetCount: 1, favoriteCount: 2, inReplyToId: 41, isRetweet: true, lang: "en")
        let data = try JSONEncoder().encode(tweet)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["id", "text", "name", "username", "authorId", "created", "imageURL",
                                     "retweetCount", "favoriteCount", "inReplyToId", "isRetweet", "lang", "lists",
                                     "idStr", "authorIdStr", "inReplyToIdStr"])
        #expect(try JSONDecoder().decode(Tweet.self, from: data) == tweet)
    }

    @Test func recordsStoredBeforeListsExistedDecodeWithNoLists() throws {
        let old = #"{"id":1,"text":"t","name":"N","username":"u","authorId":7,"created":0,"imageURL":"i","retweetCount":0,"favoriteCount":0,"isRetweet":false}"#
        let tweet = try JSONDecoder().decode(Tweet.self, from: Data(old.utf8))
        #expect(tweet.lists.isEmpty && tweet.lang == nil && tweet.inReplyToId == nil)
        let oldUser = #"{"id":1,"name":"N","username":"u","about":"","url":"","imageURL":"i"}"#
        #expect(try JSONDecoder().decode(User.self, from: Data(oldUser.utf8)).lists.isEmpty)
        let missing = #"{"id":1,"name":"N","username":"u","about":"","imageURL":"i"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(User.self, from: Data(missing.utf8)) }
    }
}
