import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
@testable import TweetieSync
import TweetieTestSupport

/// `Tweet` and `User` write their JSON objects themselves for export (`JSONObjectWritable`): the
/// text must be `RecordJSON.encoder()`'s, byte for byte, for every value, and a value the writer
/// cannot write must still come out as `JSONEncoder` writes it (or fail as it does).
@Suite("Tweet and User JSON objects written directly")
struct JSONObjectWritingTests {
    /// The object writer's own text for `value`, with no fallback: it must not fail.
    static func written<T: JSONObjectWritable>(_ value: T) -> [UInt8] {
        var object = JSONObjectWriter()
        value.writeJSONObject(to: &object)
        object.finish()
        let refused = object.failed
        #expect(!refused, "the object writer refused \(value)")
        return object.bytes
    }

    /// `RecordJSONWriter.appendObject`'s text for `value` (the object writer's, or the encoder's
    /// when it refuses), appended after other bytes.
    static func direct<T: JSONObjectWritable>(_ value: T) throws -> [UInt8] {
        var writer = RecordJSONWriter()
        var bytes: [UInt8] = Array("prefix".utf8)
        try writer.appendObject(value, to: &bytes)
        #expect(bytes.starts(with: Array("prefix".utf8)))
        return Array(bytes.dropFirst(6))
    }

    /// 400 synthetic tweets with the values JSON makes hard: optional members present and absent,
    /// escapes and non-ASCII text, extreme integers, dates before year 1000.
    static func variedTweets(seed: UInt64) -> [Tweet] {
        let generator = SyntheticTweets(seed: seed)
        return (0..<400).map { index in
            var t = generator.tweet(at: index)
            if index % 3 == 0 { t.inReplyToId = index % 6 == 0 ? Int64(index) : Int64.min + Int64(index) }
            if index % 4 == 0 { t.lang = index % 8 == 0 ? "en" : "" }
            if index % 5 == 0 { t.lists = ["icanzilb/RxSwift", "a\"b\\c", "\u{1}\n\u{7F}é"] }
            if index % 7 == 0 { t.text += " ünïcødé 🎉 \t\r </script> \u{2028}" }
            if index % 9 == 0 { t.id = -t.id; t.authorId = Int64.max; t.retweetCount = Int.min }
            if index % 11 == 0 { t.created = Date(timeIntervalSince1970: -62_135_596_800.0 + Double(index) * 0.001) }
            if index % 13 == 0 { t.name = ""; t.isRetweet = true }
            return t
        }
    }

    @Test func tweetsMatchJSONEncoderByteForByte() throws {
        let encoder = RecordJSON.encoder()
        for (index, t) in Self.variedTweets(seed: 11).enumerated() {
            let expected = Array(try encoder.encode(t))
            #expect(String(decoding: Self.written(t), as: UTF8.self) == String(decoding: expected, as: UTF8.self), "tweet \(index)")
            let direct = try Self.direct(t)
            #expect(direct == expected, "tweet \(index):\n\(String(decoding: direct, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func usersMatchJSONEncoderByteForByte() throws {
        let encoder = RecordJSON.encoder()
        let users = [
            User(id: 9, name: "Ash", username: "ashfurrow", about: "Hi \"there\"", url: "", imageURL: "https://x/y.png", lists: ["icanzilb/RxSwift"]),
            User(id: -1, name: "", username: "u", about: "\u{0}\u{1F}", url: "https://a.b/c?d=e&f", imageURL: "", lists: []),
            User(id: Int64.max, name: "Ünï", username: "x", about: String(repeating: "a", count: 300), url: "/", imageURL: "/", lists: ["a", "b", "c"]),
        ]
        for user in users {
            #expect(Self.written(user) == Array(try encoder.encode(user)))
            #expect(try Self.direct(user) == Array(try encoder.encode(user)))
        }
    }

    /// A date without ISO 8601 text is not written by the object writer: the value goes to
    /// `encode(to:)`, whose error is `JSONEncoder`'s, as before.
    @Test func aDateWithoutTextFallsBackToTheEncoder() throws {
        var tweet = SyntheticTweets(seed: 2).tweet(at: 0)
        tweet.created = Date(timeIntervalSince1970: .infinity)
        #expect(throws: EncodingError.self) { try Self.direct(tweet) }
        #expect(throws: EncodingError.self) { try RecordJSON.encoder().encode(tweet) }
    }

    /// Keys written out of byte order are caught: the writer fails and the text is discarded.
    @Test func keysOutOfOrderFailTheWriter() {
        var object = JSONObjectWriter()
        object.write(Int64(1), forKey: "id")
        object.write("x", forKey: "idStr")
        #expect(!object.failed)
        object.write("y", forKey: "author")
        #expect(object.failed)
        var same = JSONObjectWriter()
        same.write(Int64(1), forKey: "id")
        same.write(Int64(2), forKey: "id")
        #expect(same.failed, "a key written twice is out of order too")
    }

    /// An export of tweets and users: every line's record is `RecordJSON.encoder()`'s text.
    @Test func exportLinesAreJSONEncoderText() throws {
        let store = try Store.temporary(collections: [Tweet.self, User.self])
        defer { store.close() }
        let tweets = (0..<300).map { SyntheticTweets(seed: 5).tweet(at: $0) }
        let user = User(id: 3, name: "A", username: "a", about: "", url: "", imageURL: "", lists: [])
        try store.write { tx in
            try tx.add(contentsOf: tweets)
            try tx.add(user)
        }
        var out: [UInt8] = []
        try store.exportNDJSON { out.append(contentsOf: $0) }
        let encoder = RecordJSON.encoder()
        var expected: [String] = []
        for tweet in tweets.sorted(by: { $0.id < $1.id }) {
            expected.append("{\"collection\":\"tweets\",\"record\":" + String(decoding: try encoder.encode(tweet), as: UTF8.self) + "}")
        }
        expected.append("{\"collection\":\"users\",\"record\":" + String(decoding: try encoder.encode(user), as: UTF8.self) + "}")
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == expected)
    }
}
