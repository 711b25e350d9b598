import Foundation
import Testing
import TweetieSync
import TweetieTestSupport

/// A message's `type` and `reason` are typed in Swift and plain strings on the wire: the same
/// JSON as the schema's, and a value the schema does not define is refused where it is read.
@Suite("Feed message typing")
struct FeedMessageTypingTests {
    static let position = ChangeLogPosition(sequence: 7, commitID: 0x5f3a_9c0e_12ab_34cd)

    @Test func typeAndReasonAreTheSchemasStrings() throws {
        let snapshot = FeedMessage<TimelineRow>(snapshot: [], feed: "list", position: Self.position, reason: .reset)
        let change = FeedMessage<TimelineRow>(changeFor: "list", position: Self.position)
        let encoder = JSONEncoder()
        let snapshotJSON = try JSONSerialization.jsonObject(with: encoder.encode(snapshot)) as? [String: Any]
        let changeJSON = try JSONSerialization.jsonObject(with: encoder.encode(change)) as? [String: Any]
        #expect(snapshotJSON?["type"] as? String == "snapshot" && snapshotJSON?["reason"] as? String == "reset")
        #expect(changeJSON?["type"] as? String == "change" && changeJSON?["reason"] == nil)
        #expect(try JSONDecoder().decode(FeedMessage<TimelineRow>.self, from: encoder.encode(snapshot)) == snapshot)
    }

    @Test(arguments: [("type", "heartbeat"), ("reason", "again")])
    func aValueTheSchemaDoesNotDefineIsRefusedNamingItsKey(key: String, value: String) throws {
        var object = try #require(try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(FeedMessage<TimelineRow>(snapshot: [], feed: "list", position: Self.position))) as? [String: Any])
        object[key] = value
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            _ = try JSONDecoder().decode(FeedMessage<TimelineRow>.self, from: data)
            Issue.record("a message with \(key) \(value) was decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == [key], "\(context)")
            #expect(context.debugDescription.contains(value), "\(context.debugDescription)")
        }
    }
}
