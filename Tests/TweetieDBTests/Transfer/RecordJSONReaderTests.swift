// The value types below exist only to be decoded by this suite (a type that swallows errors);
// they are the test's data.
import Foundation
import Testing
import TweetieTestSupport
import TweetieDB
@testable import TweetieDBCore

/// RecordJSONReader must answer exactly as `RecordJSON.decoder()` does — the same value, or a
/// failure — on any text, valid or not: an import accepts and refuses by it.
@Suite("RecordJSONReader: the answers of JSONDecoder")
struct RecordJSONReaderTests {
    typealias Everything = RecordJSONWriterTests.Everything

    /// What JSONDecoder makes of `bytes`, and what the reader makes of it, as comparable text
    /// (the value re-encoded, or the error's type).
    static func outcomes<T: Codable>(_ type: T.Type, _ bytes: [UInt8]) -> (foundation: String, reader: String) {
        func describe(_ body: () throws -> T) -> String {
            do { return String(decoding: try RecordJSON.encoder().encode(try body()), as: UTF8.self) } catch { return "error: \(error)" }
        }
        var reader = RecordJSONReader()
        return (describe { try RecordJSON.decoder().decode(T.self, from: Data(bytes)) },
                describe { try reader.decode(T.self, from: bytes) })
    }

    @Test func generatedRecordsDecodeAsJSONDecoderDecodesThem() throws {
        var random = SeededRandom(seed: 0x1804)
        for _ in 0..<1_000 {
            let bytes = Array(try RecordJSON.encoder().encode(RecordJSONWriterTests.random(&random)))
            let (foundation, reader) = Self.outcomes(Everything.self, bytes)
            #expect(!foundation.hasPrefix("error"))
            #expect(reader == foundation)
            if reader != foundation { return }
        }
    }

    /// Random damage to valid records: both accept (with the same value) or both refuse.
    @Test func damagedTextIsAcceptedOrRefusedAsJSONDecoderDoes() throws {
        var random = SeededRandom(seed: 77)
        let alphabet = Array(#"{}[]:,"\/-+.0123456789eEtrufalsn ubfnrt"#.utf8) + [0x0A, 0x00, 0xFF, 0xC3, 0xA9]
        var accepted = 0
        for round in 0..<3_000 {
            var bytes = Array(try RecordJSON.encoder().encode(RecordJSONWriterTests.random(&random)))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
                default: bytes[position] = alphabet.randomElement(using: &random)!
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let (foundation, reader) = Self.outcomes(Everything.self, bytes)
            #expect(reader == foundation, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            if reader != foundation { return }
            if !foundation.hasPrefix("error") { accepted += 1 }
        }
        // Some damage leaves a valid record (inside strings, digits): both paths were compared.
        #expect(accepted > 100, "only \(accepted) damaged texts were still records")
    }

    struct Numbers: Codable { var i: Int64; var u: UInt8; var d: Double; var f: Float; var o: Int? }

    @Test(arguments: [
        #"{"i":1.0,"u":1,"d":1,"f":1}"#, #"{"i":1e2,"u":2,"d":2,"f":2}"#, #"{"i":-0,"u":0,"d":-0,"f":0}"#,
        #"{"i":9223372036854775807,"u":255,"d":1e308,"f":3.4e38}"#, #"{"i":-9223372036854775808,"u":0,"d":5e-324,"f":1e-45}"#,
        #"{"i":9223372036854775808,"u":0,"d":0,"f":0}"#, #"{"i":0,"u":256,"d":0,"f":0}"#, #"{"i":0,"u":-1,"d":0,"f":0}"#,
        #"{"i":0,"u":0,"d":1e400,"f":0}"#, #"{"i":0,"u":0,"d":1e-400,"f":0}"#, #"{"i":0,"u":0,"d":2.5e-324,"f":0}"#,
        #"{"i":0,"u":0,"d":0,"f":3.5e38}"#, #"{"i":0,"u":0,"d":0,"f":16777217}"#, #"{"i":0,"u":0,"d":0,"f":1e-46}"#,
        #"{"i":0,"u":0,"d":0.30000000000000004,"f":0.1,"o":null}"#, #" { "i" : 5 , "u":1,"d":1,"f":1 } "#,
        #"{"i":"5","u":1,"d":1,"f":1}"#, #"{"u":1,"d":1,"f":1}"#, #"{"i":05,"u":1,"d":1,"f":1}"#, #"{"i":5,"u":1,"d":1.,"f":1}"#,
    ])
    func numbersAreReadAsJSONDecoderReadsThem(text: String) {
        let (foundation, reader) = Self.outcomes(Numbers.self, Array(text.utf8))
        #expect(reader == foundation)
    }

    /// Invalid UTF-8 anywhere — in a key or value the type never reads, too — is left to
    /// JSONDecoder, which refuses it in some places and not in others (Swift 6.3).
    @Test(arguments: [[0xA9], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98]] as [[UInt8]])
    func invalidUTF8IsJudgedByJSONDecoder(bad: [UInt8]) {
        let prefix = Array(#"{"i":1,"u":1,"d":1,"f":1,"#.utf8)
        for text in [prefix + [0x22] + bad + Array(#"":1}"#.utf8), prefix + Array(#""x":""#.utf8) + bad + Array(#""}"#.utf8)] {
            let (foundation, reader) = Self.outcomes(Numbers.self, text)
            #expect(reader == foundation)
        }
    }

    struct Texts: Codable { var s: String; var date: Date; var url: URL; var data: Data }

    @Test(arguments: [
        #"{"s":"a\/b\u00e9\n","date":"2018-12-08T08:47:15.123Z","url":"https://x.y/z","data":"AQID"}"#,
        #"{"s":"\ud83d\ude00","date":"2018-12-08T08:47:15Z","url":"a b","data":"AQID"}"#,
        #"{"s":"\ud83d","date":"2018-12-08T08:47:15Z","url":"https://x","data":"AQID"}"#,
        #"{"s":"\u0000","date":"2018-12-08","url":"https://x","data":"AQID"}"#,
        #"{"s":"x","date":"2018-12-08T08:47:15+02:00","url":"https://x","data":"A"}"#,
        #"{"s":"\x","date":"2018-12-08T08:47:15Z","url":"https://x","data":""}"#,
    ])
    func stringsDatesURLsAndDataAreReadAsJSONDecoderReadsThem(text: String) {
        let (foundation, reader) = Self.outcomes(Texts.self, Array(text.utf8))
        #expect(reader == foundation)
    }

    /// A type that swallows decoding errors must still get JSONDecoder's value.
    struct Lenient: Codable {
        var x: Int
        enum CodingKeys: CodingKey { case x }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            x = (try? container.decode(Int.self, forKey: .x)) ?? -1
        }
    }

    @Test func aTypeThatSwallowsErrorsGetsJSONDecodersValue() throws {
        var reader = RecordJSONReader()
        #expect(try reader.decode(Lenient.self, from: Array(#"{"x":1e2}"#.utf8)).x == 100)
        #expect(try reader.decode(Lenient.self, from: Array(#"{"x":"a"}"#.utf8)).x == -1)
        #expect(try reader.decode(Lenient.self, from: Array(#"{"x":7}"#.utf8)).x == 7)
    }

    @Test func errorsAreJSONDecodersErrors() {
        var reader = RecordJSONReader()
        for text in [#"{"i":"5","u":1,"d":1,"f":1}"#, #"{"u":1,"d":1,"f":1}"#, #"{"i":1,"u":1,"d":1,"f":1"#] {
            let expected = String(describing: #expect(throws: DecodingError.self) { try RecordJSON.decoder().decode(Numbers.self, from: Data(text.utf8)) })
            let actual = String(describing: #expect(throws: DecodingError.self) { try reader.decode(Numbers.self, from: Array(text.utf8)) })
            #expect(actual == expected)
        }
    }
}
