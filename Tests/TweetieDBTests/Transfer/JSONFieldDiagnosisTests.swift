import Foundation
import Testing
@testable import TweetieDBCore

/// Which field a byte JSON does not allow is in, and where: values at any depth, keys, and
/// bytes between values.
@Suite("JSON field diagnosis of bytes JSON does not allow")
struct JSONFieldDiagnosisTests {
    static func badByte(_ text: [UInt8], at offset: Int = 0, within container: String? = nil) -> String? {
        text.withUnsafeBytes { JSONFieldDiagnosis.badByte(in: $0, startingAt: offset, within: container) }
    }

    @Test func namesTheFieldTheByteAndItsPlace() {
        let nested = Array(#"{"a":1,"user":{"tags":["x","y"#.utf8) + [0x01] + Array(#""]}}"#.utf8)
        #expect(Self.badByte(nested) == #"field 'user.tags.1': byte 0x01 at byte 30 of the line is a raw control character, which a JSON string must escape (as \u0001)"#)
        #expect(Self.badByte(nested, at: 100)?.contains("at byte 130 of the line") == true)
        let key = Array(#"{"user":{"na"#.utf8) + [0x1F] + Array(#"me":"n"}}"#.utf8)
        #expect(Self.badByte(key)?.hasPrefix("a field name in 'user': byte 0x1F at byte 13 ") == true, "\(Self.badByte(key) ?? "nil")")
        let between = Array(#"{"id":7,"#.utf8) + [0x05] + Array(#""x":1}"#.utf8)
        #expect(Self.badByte(between) == "byte 0x05 at byte 9 of the line is a raw control character outside any string, where JSON allows only spaces, tabs and line ends")
        let utf8 = Array(#"{"text":"caf"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(Self.badByte(utf8) == "field 'text': byte 0xC3 at byte 13 of the line begins a sequence that is not valid UTF-8, which JSON text must be")
    }

    @Test func aWholeLineNamesTheRecordsFieldsAsTheRecordDoes() {
        let line = Array(#"{"collection":"users","record":{"name":"a"#.utf8) + [0x1B] + Array(#"","x":{"k":1}}}"#.utf8)
        #expect(Self.badByte(line, within: "record")?.hasPrefix("field 'name': byte 0x1B at byte 42 ") == true, "\(Self.badByte(line, within: "record") ?? "nil")")
        let key = Array(#"{"collection":"users","record":{"n"#.utf8) + [0x02] + Array(#"":1}}"#.utf8)
        #expect(Self.badByte(key, within: "record")?.hasPrefix("a field name: byte 0x02 ") == true)
        let collection = Array(#"{"collection":"us"#.utf8) + [0x02] + Array(#"ers","record":{}}"#.utf8)
        #expect(Self.badByte(collection, within: "record")?.hasPrefix("field 'collection': byte 0x02 ") == true)
    }

    @Test func escapedControlsTabsAndValidUTF8AreAllowed() {
        #expect(Self.badByte(Array("{\"text\":\"a\\u0005b\\n\\\"c\\\" é 👨‍💻\",\t\"n\":[1, 2]\r\n}".utf8)) == nil)
        #expect(Self.badByte(Array(#"{"a":"\\"}"#.utf8)) == nil)
    }
}
