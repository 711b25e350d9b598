import Foundation
import Testing
@testable import TweetieSync

/// Tweet's and User's hand-written storage coding must write exactly what their Codable form
/// would, and read it back: checked against plain-Codable mirrors with the same fields.
@Suite("Tweet and User storage coding")
struct StorageCodingTests {
    struct TweetMirror: Codable, Equatable {
        var id: Int64, text: String, name: String, username: String, authorId: Int64, created: Date, imageURL: String
        var retweetCount: Int, favoriteCount: Int, inReplyToId: Int64?, isRetweet: Bool, lang: String?, lists: [String]
    }

    struct UserMirror: Codable, Equatable {
        var id: Int64, name: String, username: String, about: String, url: String, imageURL: String, lists: [String]
    }

    @Test func tweetsMatchTheirCodableFormByteForByte() throws {
        let generator = SyntheticTweets(seed: 3)
        for index in 0..<300 {
            var t = generator.tweet(at: index)
            if index % 3 == 0 { t.inReplyToId = Int64(index) }
            if index % 4 == 0 { t.lang = "en" }
            if index % 5 == 0 { t.lists = ["icanzilb/RxSwift", "a/b"] }
            t.text += index % 7 == 0 ? " ünïcødé 🎉" : ""
            let mirror = TweetMirror(id: t.id, text: t.text, name: t.name, username: t.username, authorId: t.authorId, created: t.created,
                                     imageURL: t.imageURL, retweetCount: t.retweetCount, favoriteCount: t.favoriteCount,
                                     inReplyToId: t.inReplyToId, isRetweet: t.isRetweet, lang: t.lang, lists: t.lists)
            let fast = try RecordEncoder().encode(t)
            let codable = try RecordEncoder().encode(mirror)
            #expect(fast == codable, "tweet \(index)")
            #expect(try RecordDecoder().decode(Tweet.self, from: codable) == t)
            #expect(try RecordDecoder().decode(TweetMirror.self, from: fast) == mirror)
        }
    }

    @Test func usersMatchTheirCodableFormAndOldRecordsDecode() throws {
        let user = User(id: 9, name: "Ash", username: "ashfurrow", about: "Hi", url: "", imageURL: "https://x/y.png", lists: ["icanzilb/RxSwift"])
        let mirror = UserMirror(id: 9, name: "Ash", username: "ashfurrow", about: "Hi", url: "", imageURL: "https://x/y.png", lists: ["icanzilb/RxSwift"])
        #expect(try RecordEncoder().encode(user) == RecordEncoder().encode(mirror))
        struct OldUser: Codable { var id: Int64, name: String, username: String, about: String, url: String, imageURL: String }
        let old = try RecordEncoder().encode(OldUser(id: 1, name: "N", username: "u", about: "", url: "", imageURL: ""))
        #expect(try RecordDecoder().decode(User.self, from: old).lists == [])
        struct Broken: Codable { var id: Int64, name: String }
        #expect(throws: DecodingError.self) { try RecordDecoder().decode(User.self, from: try RecordEncoder().encode(Broken(id: 1, name: "x"))) }
    }
}
