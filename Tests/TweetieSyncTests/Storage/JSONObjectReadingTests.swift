import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore
@testable import TweetieSync
import TweetieTestSupport

/// `Tweet` and `User` read import lines' objects by name (`JSONObjectReadable`): for every object
/// they take, the record must be `RecordJSON.decoder()`'s; anything unusual they must leave to
/// `init(from:)`, so the import's answer (record or error) stays `JSONDecoder`'s.
@Suite("Tweet and User JSON objects read directly")
struct JSONObjectReadingTests {
    /// An error, by its description (two errors compare equal when they say the same).
    struct Failure: Error, Equatable { let text: String }

    /// What the object reader makes of `json` (nil: it left the object to `init(from:)`).
    static func read<T: JSONObjectReadable>(_ type: T.Type, _ json: [UInt8]) throws -> T? {
        try json.withUnsafeBytes { bytes in
            let tape = try JSONTape.parse(bytes, rejectingAmbiguousKeys: true)
            return tape.entries.withUnsafeBufferPointer { entries in
                var reader = JSONObjectReader(view: JSONTapeView(entries: entries, bytes: tape.bytes))
                let value = T(jsonObject: &reader)
                return reader.failed ? nil : value
            }
        }
    }

    /// What the import's reader answers for `json`: the record, or the error's description.
    static func imported<T: JSONObjectReadable>(_ type: T.Type, _ json: [UInt8]) -> Result<T, Failure> {
        do {
            var reader = RecordJSONReader()
            let value = try json.withUnsafeBytes { bytes in
                try reader.decodeObject(T.self, from: bytes, parsed: try JSONTape.parse(bytes, rejectingAmbiguousKeys: true))
            }
            return .success(value)
        } catch {
            return .failure(Failure(text: "\(error)"))
        }
    }

    static func decoded<T: Decodable>(_ type: T.Type, _ json: [UInt8]) -> Result<T, Failure> {
        do { return .success(try RecordJSON.decoder().decode(T.self, from: Data(json))) } catch { return .failure(Failure(text: "\(error)")) }
    }

    @Test func exportedTweetsReadAsJSONDecoderReadsThem() throws {
        let encoder = RecordJSON.encoder()
        for (index, t) in JSONObjectWritingTests.variedTweets(seed: 13).enumerated() {
            let json = Array(try encoder.encode(t))
            let fast = try Self.read(Tweet.self, json)
            #expect(fast != nil, "tweet \(index) was left to init(from:)")
            #expect(fast == (try RecordJSON.decoder().decode(Tweet.self, from: Data(json))), "tweet \(index)")
        }
    }

    @Test func exportedUsersReadAsJSONDecoderReadsThem() throws {
        let users = [
            User(id: 9, name: "Ash", username: "ashfurrow", about: "Hi \"there\"", url: "", imageURL: "https://x/y.png", lists: ["icanzilb/RxSwift"]),
            User(id: -1, name: "", username: "u", about: "\u{0}\u{1F}", url: "https://a.b/c?d=e&f", imageURL: "", lists: []),
        ]
        for user in users {
            let json = Array(try RecordJSON.encoder().encode(user))
            #expect(try Self.read(User.self, json) == user)
        }
    }

    /// Objects written by hand: each is read directly only when `JSONDecoder` reads it to the same
    /// record, and the import's answer — record or error — is `JSONDecoder`'s in every case.
    @Test(arguments: [
        // Read directly:
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, true),
        (#"{"authorIdStr":"2","created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"idStr":"5","imageURL":"u","isRetweet":true,"lang":null,"lists":null,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, true),
        (#"{"authorId":2,"authorIdStr":"2","created":"2018-12-08T09:00:00.000Z","extra":[1,{"x":2}],"favoriteCount":1,"id":5,"idStr":"5","imageURL":"u","inReplyToId":null,"isRetweet":false,"lang":"e\u00e9","lists":["a","b\/c"],"name":"n\n","retweetCount":0,"text":"t","username":"a"}"#, true),
        // Left to init(from:):
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"idStr":"6","imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":"2","created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1.0,"id":5,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":0,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":false,"lists":["a",1],"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":5,"imageURL":"u","isRetweet":false,"name":null,"retweetCount":0,"text":"t","username":"a"}"#, false),
        (#"{"authorId":2,"created":"2018-12-08T09:00:00.000Z","favoriteCount":1,"id":99999999999999999999,"imageURL":"u","isRetweet":false,"name":"n","retweetCount":0,"text":"t","username":"a"}"#, false),
    ])
    func handWrittenObjects(json: String, readDirectly: Bool) throws {
        let bytes = Array(json.utf8)
        let fast = try Self.read(Tweet.self, bytes)
        let reference = Self.decoded(Tweet.self, bytes)
        #expect((fast != nil) == readDirectly)
        if let fast { #expect(reference == .success(fast)) }
        #expect(Self.imported(Tweet.self, bytes) == reference)
    }
}
