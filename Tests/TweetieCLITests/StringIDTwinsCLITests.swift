import Foundation
import Testing
import TweetieTestSupport
import TweetieSync

/// Ids above 2^53 survive JSON readers that hold numbers as doubles: every
/// JSON the CLI prints carries string twins, and import accepts either form and checks they agree.
@Suite("tweetie-db: string twins of ids")
struct StringIDTwinsCLITests {
    static let id = "1071510262772662339", author = "1071510262772662401", replyTo = "1071510262772662338"
    static let header = #"{"collections":[{"count":1,"name":"tweets","schemaVersion":1},{"count":1,"name":"users","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#

    /// An export of the version before string twins: numbers only.
    static func oldExport(tweetID: String = id) -> Data {
        let tweet = #"{"collection":"tweets","record":{"authorId":\#(author),"created":"2018-12-08T08:47:15.000Z","favoriteCount":0,"id":\#(tweetID),"imageURL":"i","inReplyToId":\#(replyTo),"isRetweet":false,"lists":[],"name":"N","retweetCount":0,"text":"t","username":"u"}}"#
        let user = #"{"collection":"users","record":{"about":"","id":\#(author),"imageURL":"i","lists":[],"name":"N","url":"","username":"u"}}"#
        return Data([header, tweet, user].joined(separator: "\n").utf8 + [0x0A])
    }

    static func database(_ export: Data = oldExport()) throws -> TemporaryDirectory {
        let db = TemporaryDirectory.database()
        let imported = try CLI.run(["import", "-", "--db", db.path], stdin: export)
        #expect(imported.status == 0, "\(imported.stderr)")
        return db
    }

    static func object(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func expectTwins(_ tweet: [String: Any], _ context: String) {
        #expect(tweet["idStr"] as? String == id, "\(context): \(tweet)")
        #expect(tweet["authorIdStr"] as? String == author, "\(context): \(tweet)")
        #expect(tweet["inReplyToIdStr"] as? String == replyTo, "\(context): \(tweet)")
    }

    @Test func everyPrintedJSONCarriesStringTwins() throws {
        let db = try Self.database()
        defer { db.remove() }
        let ndjson = try CLI.run(["tweets", "list", "--format", "ndjson", "--db", db.path])
        Self.expectTwins(try Self.object(ndjson.output.split(separator: "\n")[0]), "tweets list ndjson")
        let json = try CLI.run(["tweets", "list", "--format", "json", "--db", db.path])
        let array = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        Self.expectTwins(array[0], "tweets list json")
        let show = try CLI.run(["tweets", "show", Self.id, "--format", "json", "--db", db.path])
        Self.expectTwins(try Self.object(show.output), "tweets show")
        let users = try CLI.run(["users", "--format", "ndjson", "--db", db.path])
        #expect(try Self.object(users.output.split(separator: "\n")[0])["idStr"] as? String == Self.author)
        let export = try CLI.run(["export", "--db", db.path]).output.split(separator: "\n")
        Self.expectTwins(try Self.object(export[1])["record"] as? [String: Any] ?? [:], "export")
        #expect(try Self.object(export[2])["record"].flatMap { $0 as? [String: Any] }?["idStr"] as? String == Self.author)
    }

    @Test func importAcceptsEitherFormAndRefusesTwinsThatDisagree() throws {
        let db = try Self.database()
        defer { db.remove() }
        let export = try CLI.run(["export", "--db", db.path]).stdout
        let text = String(decoding: export, as: UTF8.self)
        // What jq 1.6 makes of the export: the number rounded, the string intact.
        let rounded = text.replacingOccurrences(of: "\"id\":\(Self.id)", with: "\"id\":1071510262772662300")
        #expect(rounded != text)
        let refused = try CLI.run(["import", "-", "--db", db.path], stdin: Data(rounded.utf8))
        #expect(refused.status == 1 && refused.stderr.contains("line 2") && refused.stderr.contains("disagree"), "\(refused.stderr)")
        #expect(try CLI.run(["export", "--db", db.path]).stdout == export)
        // Only the string twin, or the id itself as a string: the same database.
        for variant in [text.replacingOccurrences(of: "\"id\":\(Self.id),", with: ""),
                        text.replacingOccurrences(of: "\"id\":\(Self.id),", with: "\"id\":\"\(Self.id)\",")] {
            #expect(variant != text)
            let copy = try Self.database(Data(variant.utf8))
            defer { copy.remove() }
            #expect(try CLI.run(["export", "--db", copy.path]).stdout == export)
        }
        // A file written before the twins existed imports to the same database.
        let old = try Self.database(Self.oldExport())
        defer { old.remove() }
        #expect(try CLI.run(["export", "--db", old.path]).stdout == export)
        // The id a script reads from the JSON finds the tweet.
        let line = try CLI.run(["tweets", "list", "--format", "ndjson", "--db", db.path]).output
        let idStr = try #require(try Self.object(line.split(separator: "\n")[0])["idStr"] as? String)
        #expect(try CLI.run(["tweets", "show", idStr, "--db", db.path]).status == 0)
    }
}
