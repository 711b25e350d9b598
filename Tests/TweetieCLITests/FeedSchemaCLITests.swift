import Foundation
import Testing
import TweetieTestSupport

/// `feed --schema` prints the published JSON Schema of the feed.
@Suite("tweetie-db feed --schema")
struct FeedSchemaCLITests {
    @Test func printsThePublishedSchema() throws {
        let result = try CLI.run(["feed", "--schema"])
        let published = try Data(contentsOf: Repository.root.appendingPathComponent("schemas/tweetie-feed.schema.json"))
        #expect(result.status == 0 && result.stdout == published, "feed --schema differs from schemas/tweetie-feed.schema.json: the executable embeds that file (Sources/tweetie-db/Resources links to it): rebuild")
        #expect(try JSONSerialization.jsonObject(with: result.stdout) is [String: Any])
        #expect(try CLI.run(["feed"]).output.contains("SUBCOMMANDS:"))
    }
}
