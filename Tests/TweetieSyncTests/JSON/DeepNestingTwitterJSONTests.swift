import Foundation
import Testing
import TweetieSync

/// Found by fuzzing: `JSONDecoder` (FoundationEssentials, Swift 6.3) traps on a body of exactly
/// 513 `[`. Each Twitter decoder refuses bodies nested deeper than 512 levels with malformedJSON.
@Suite("Deeply nested Twitter JSON")
struct DeepNestingTwitterJSONTests {
    static let bodies = [String(repeating: "[", count: 513), String(repeating: "[", count: 100_000),
                         "{\"users\":" + String(repeating: "[", count: 600)]

    @Test(arguments: bodies)
    func everyDecoderRejectsItClearly(body: String) {
        let data = Data(body.utf8)
        for decode in [{ _ = try TwitterJSON.decodeStatuses(data, source: "deep.json") },
                       { _ = try TwitterJSON.decodeMembers(data, source: "deep.json") },
                       { _ = try TwitterJSON.decodeUsers(data, source: "deep.json") }] as [() throws -> Void] {
            let error = #expect(throws: TwitterAPIError.self) { try decode() }
            guard case .malformedJSON(let source, let reason)? = error else {
                Issue.record("expected malformedJSON, got \(String(describing: error))")
                continue
            }
            #expect(source == "deep.json")
            #expect(reason == "not valid JSON (arrays and objects nest deeper than 512 levels)")
        }
    }

    @Test func fiveHundredTwelveLevelsStillReachTheDecoder() throws {
        let body = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        // A 512-deep array is valid JSON: an array of one element that is not a status.
        let batch = try TwitterJSON.decodeStatuses(Data(body.utf8), source: "s")
        #expect(batch.items.isEmpty && batch.dropped.count == 1)
    }

    /// Also from fuzzing: JSONDecoder's "The given data was not valid JSON." said neither where nor
    /// why; the reason now carries the parser's own detail.
    @Test(arguments: [("[{\"id\":1", "Unexpected end of file"), ("[1 2]", "Invalid value around character 3"), ("", "Unexpected end of file")])
    func syntaxErrorsSayWhereAndWhy(body: String, detail: String) {
        let error = #expect(throws: TwitterAPIError.self) { try TwitterJSON.decodeStatuses(Data(body.utf8), source: "s.json") }
        guard case .malformedJSON(_, let reason)? = error else {
            Issue.record("expected TwitterAPIError.malformedJSON, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("not valid JSON ("))
        #expect(reason.contains(detail), "\(reason)")
    }
}
