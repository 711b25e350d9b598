import Foundation
import Testing
import TweetieTestSupport

/// Issue 20, point 7: `feed --schema` prints the published JSON Schema of the feed.
@Suite("tweetie-db feed --schema")
struct FeedSchemaCLITests {
    @Test func printsThePublishedSchema() throws {
        let result = try CLI.run(["feed", "--schema"])
        let published = try Data(contentsOf: Repository.root.appendingPathComponent("schemas/tweetie-feed.schema.json"))
        #expect(result.status == 0 && result.stdout == published, "feed --schema differs from schemas/tweetie-feed.schema.json: paste the file into Sources/tweetie-db/Support/FeedSchema.swift")
        #expect(try JSONSerialization.jsonObject(with: result.stdout) is [String: Any])
        #expect(try CLI.run(["feed"]).output.contains("SUBCOMMANDS:"))
    }
}
