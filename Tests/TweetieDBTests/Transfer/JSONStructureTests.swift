import Foundation
import Testing
import TweetieDB
@testable import TweetieDBCore

@Suite("JSONStructure: duplicate keys and depth")
struct JSONStructureTests {
    @Test(arguments: [
        (#"{"a":1,"b":2}"#, nil),
        (#"{"a":1,"a":2}"#, "a"),
        (#"{"a":{"b":1},"b":{"a":1}}"#, nil),
        (#"{"a":{"b":1,"b":2}}"#, "b"),
        (#"[{"a":1},{"a":2}]"#, nil),
        (#"{"a":"a","b":"a"}"#, nil),
        (#"{"a\"":1,"a":2}"#, nil),
        (#"{"a":1,"\u0061":2}"#, "a"),
        (#"{"x":[1,{"y":1,"y":2}]}"#, "y"),
        (#"{"a":1,"a""#, "a"),
    ] as [(String, String?)])
    func duplicateKeysAreFound(json: String, duplicate: String?) {
        let expected = duplicate.map { JSONStructure.Problem.duplicateKey($0) }
        #expect(JSONStructure.check(Array(json.utf8)) == expected, "\(json)")
    }

    @Test func manyKeysAreCheckedThroughASet() {
        let keys = (0..<200).map { "\"k\($0)\":\($0)" }
        #expect(JSONStructure.check(Array(("{" + keys.joined(separator: ",") + "}").utf8)) == nil)
        #expect(JSONStructure.check(Array(("{" + keys.joined(separator: ",") + ",\"k150\":0}").utf8)) == .duplicateKey("k150"))
        #expect(JSONStructure.check(Array(("{" + keys.joined(separator: ",") + ",\"k\\u0031\":0}").utf8)) == .duplicateKey("k1"))
    }

    @Test func depthIsLimited() {
        #expect(JSONStructure.check(Array(String(repeating: "[", count: 513).utf8)) == .tooDeep)
        #expect(JSONStructure.check(Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)) == nil)
    }
}
