import Foundation
import Testing
@testable import TweetieSync
import TweetieTestSupport

/// The on-disk form of `Tweet` and `User` must never change by accident: fixed values encode to
/// bytes committed here (written by the hand-written codec, before `@Record` replaced it), those
/// bytes decode back to the values, and a small database written by that code
/// (`Tests/Fixtures/GoldenStore/data.mdb`) opens and reads identically.
@Suite("Tweet and User golden bytes")
struct RecordGoldenBytesTests {
    /// The values behind the golden bytes: every field set, optionals set and `nil`, non-ASCII text.
    enum Golden {
        static let tweets: [Tweet] = [
            Tweet(id: 1_071_325_319_259_414_528, text: "Ünïcødé tweet 🎉 — naïve café, 日本語 text", name: "Zoë Ångström",
                  username: "zoe_a", authorId: 39_968_020, created: Date(timeIntervalSinceReferenceDate: 565_812_345.25),
                  imageURL: "https://pbs.twimg.com/profile_images/1/zoe_normal.png", retweetCount: 12, favoriteCount: 345,
                  inReplyToId: 1_071_325_319_259_414_000, isRetweet: true, lang: "de", lists: ["icanzilb/RxSwift", "zoe/ƒriends"]),
            Tweet(id: 7, text: "plain ascii", name: "Ann", username: "ann", authorId: -3,
                  created: Date(timeIntervalSinceReferenceDate: -1_000.5), imageURL: "", retweetCount: 0, favoriteCount: -1),
            Tweet(id: Int64.max, text: "", name: "", username: "Max", authorId: Int64.min,
                  created: Date(timeIntervalSinceReferenceDate: 0), imageURL: "https://example.com/a.png",
                  retweetCount: Int.max, favoriteCount: 0, inReplyToId: nil, isRetweet: false, lang: "und", lists: []),
        ]

        static let users: [User] = [
            User(id: 39_968_020, name: "Zoë Ångström", username: "zoe_a", about: "Swift · RxSwift · 日本語",
                 url: "https://zoe.example/ü", imageURL: "https://pbs.twimg.com/profile_images/1/zoe_normal.png",
                 lists: ["icanzilb/RxSwift"]),
            User(id: 1, name: "Ann", username: "ann", about: "", url: "", imageURL: ""),
        ]

        /// The bytes of `tweets`, in hex, as written by the hand-written `RecordCodable` codec.
        static let tweetBytes: [String] = [
            "010cc302026964048080b7d5f4ac8ede1d04746578740737c39c6ec3af63c3b864c3a920747765657420f09f8e8920e2"
                + "8094206e61c3af766520636166c3a92c20e697a5e69cace8aa9e2074657874046e616d65070f5a6fc3ab20c3856e6773"
                + "7472c3b66d08757365726e616d6507057a6f655f6108617574686f72496404a8f48e260763726561746564090000a03c"
                + "cedcc04108696d61676555524c073568747470733a2f2f7062732e7477696d672e636f6d2f70726f66696c655f696d61"
                + "6765732f312f7a6f655f6e6f726d616c2e706e670c72657477656574436f756e7404180d6661766f72697465436f756e"
                + "7404b2050b696e5265706c79546f496404e0f7b6d5f4ac8ede1d0969735265747765657402046c616e6707026465056c"
                + "697374730d210207106963616e7a696c622f52785377696674070c7a6f652fc6927269656e6473",
            "010c8901026964040e0474657874070b706c61696e206173636969046e616d650703416e6e08757365726e616d650703"
                + "616e6e08617574686f72496404050763726561746564090000000000448fc008696d61676555524c07000c7265747765"
                + "6574436f756e7404000d6661766f72697465436f756e7404010969735265747765657401056c697374730d0100",
            "010cb90102696404feffffffffffffffff0104746578740700046e616d65070008757365726e616d6507034d61780861"
                + "7574686f72496404ffffffffffffffffff01076372656174656409000000000000000008696d61676555524c07196874"
                + "7470733a2f2f6578616d706c652e636f6d2f612e706e670c72657477656574436f756e7404feffffffffffffffff010d"
                + "6661766f72697465436f756e7404000969735265747765657401046c616e670703756e64056c697374730d0100",
        ]

        /// The bytes of `users`, in hex.
        static let userBytes: [String] = [
            "010cca0102696404a8f48e26046e616d65070f5a6fc3ab20c3856e67737472c3b66d08757365726e616d6507057a6f65"
                + "5f610561626f7574071d537769667420c2b7205278537769667420c2b720e697a5e69cace8aa9e0375726c0716687474"
                + "70733a2f2f7a6f652e6578616d706c652fc3bc08696d61676555524c073568747470733a2f2f7062732e7477696d672e"
                + "636f6d2f70726f66696c655f696d616765732f312f7a6f655f6e6f726d616c2e706e67056c697374730d130107106963"
                + "616e7a696c622f52785377696674",
            "010c3f0269640402046e616d650703416e6e08757365726e616d650703616e6e0561626f757407000375726c07000869"
                + "6d61676555524c0700056c697374730d0100",
        ]
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    @Test func tweetsEncodeToTheGoldenBytes() throws {
        let encoded = try Golden.tweets.map { Self.hex(try RecordEncoder().encode($0)) }
        #expect(encoded == Golden.tweetBytes)
    }

    @Test func usersEncodeToTheGoldenBytes() throws {
        let encoded = try Golden.users.map { Self.hex(try RecordEncoder().encode($0)) }
        #expect(encoded == Golden.userBytes)
    }

    @Test func goldenBytesDecodeBackToTheValues() throws {
        #expect(try Golden.tweetBytes.map { try RecordDecoder().decode(Tweet.self, from: Self.bytes($0)) } == Golden.tweets)
        #expect(try Golden.userBytes.map { try RecordDecoder().decode(User.self, from: Self.bytes($0)) } == Golden.users)
        // Through the store's own hook too (the path a scan takes), with and without shared strings.
        for sharing in [nil, SharedStringTable()] {
            let tweets = try Golden.tweetBytes.map { hex in
                try Self.bytes(hex).withUnsafeBytes { try Tweet._decodeStored($0, sharing: sharing) }
            }
            #expect(tweets == Golden.tweets)
            let users = try Golden.userBytes.map { hex in
                try Self.bytes(hex).withUnsafeBytes { try User._decodeStored($0, sharing: sharing) }
            }
            #expect(users == Golden.users)
        }
    }

    // MARK: The golden database

    static let storeDirectory = Repository.fixtures.appendingPathComponent("GoldenStore", isDirectory: true)

    /// Writes the golden database (run once, by hand, on the code whose format it pins):
    /// `TWEETIE_WRITE_GOLDEN_STORE=1 swift test --skip-build --filter RecordGoldenBytesTests`.
    static func writeGoldenStore(at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let store = try TweetieDatabase.open(at: path)
        defer { store.close() }
        try store.write { tx in
            _ = try tx.add(contentsOf: Golden.tweets, update: .all)
            _ = try tx.add(contentsOf: Golden.users, update: .all)
        }
    }

    @Test func theGoldenDatabaseReadsIdentically() throws {
        if ProcessInfo.processInfo.environment["TWEETIE_WRITE_GOLDEN_STORE"] == "1" {
            try Self.writeGoldenStore(at: Self.storeDirectory.path)
        }
        // A copy: opening may write (reader table, metadata), and the fixture must stay as committed.
        let copy = TemporaryDirectory("golden-store")
        defer { copy.remove() }
        try FileManager.default.copyItem(at: Self.storeDirectory.appendingPathComponent("data.mdb"),
                                         to: copy.url.appendingPathComponent("data.mdb"))
        let store = try TweetieDatabase.open(at: copy.path)
        defer { store.close() }
        let (byCreated, byAuthor, users, byUsername, byKey) = try store.read { tx in
            (try tx.fetch(Query<Tweet>().sorted(by: Tweet.byCreated)),
             try tx.fetch(Query<Tweet>().filter(Tweet.byAuthor, equals: "zoe_a").sorted(by: Tweet.byAuthor)),
             try tx.fetch(Query<User>()),
             try tx.fetch(Query<User>().filter(User.byUsername, equals: "ann")),
             try Golden.tweets.compactMap { try tx.get(Tweet.self, key: $0.id) })
        }
        #expect(byCreated == Golden.tweets.sorted { $0.created > $1.created })
        #expect(byAuthor == [Golden.tweets[0]])
        #expect(users == Golden.users.sorted { $0.id < $1.id })
        #expect(byUsername == [Golden.users[1]])
        #expect(byKey == Golden.tweets)
        // What it read re-encodes to the golden bytes.
        #expect(try byKey.map { Self.hex(try RecordEncoder().encode($0)) } == Golden.tweetBytes)
        #expect(try store.verify().problems.isEmpty)
    }
}
