import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

/// Found by fuzzing: `JSONDecoder` (FoundationEssentials, Swift 6.3) traps on 513 opening
/// brackets that end the input. The import refuses such lines, clearly, before parsing them.
@Suite("Deeply nested import input")
struct DeepNestingImportTests {
    static let header = #"{"collections":[{"count":1,"name":"posts","schemaVersion":1}],"format":"tweetie-db-export","version":1}"#

    @Test(arguments: [(String(repeating: "[", count: 513), 1), (String(repeating: "[", count: 513) + "\n", 1),
                      (header + "\n" + String(repeating: "[", count: 513) + "\n", 2),
                      (header + "\n" + #"{"collection":"posts","record":"# + String(repeating: "{\"a\":", count: 600) + "\n", 2)])
    func nestingDeeperThanTheLimitIsRejected(input: String, line: Int) throws {
        let store = try TransferTests.seeded()
        defer { store.close() }
        let before = try TransferTests.export(store)
        let error = #expect(throws: TransferError.self) { try TransferTests.importBytes(Array(input.utf8), into: store) }
        #expect(error?.line == line)
        #expect(error?.reason.contains("deeper than 512 levels") == true, "\(String(describing: error))")
        #expect(try TransferTests.export(store) == before)
    }

    @Test func depthCountsBracketsOutsideStringsOnly() {
        #expect(!JSONNesting.exceedsLimit(Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)))
        #expect(JSONNesting.exceedsLimit(Array(String(repeating: "[", count: 513).utf8)))
        #expect(JSONNesting.exceedsLimit(Array(String(repeating: "{\"k\":", count: 513).utf8)))
        #expect(!JSONNesting.exceedsLimit(Array(("[\"" + String(repeating: "[", count: 600) + "\\\"[\"]").utf8)))
        #expect(!JSONNesting.exceedsLimit(Array(String(repeating: "[]", count: 10_000).utf8)))
    }
}
