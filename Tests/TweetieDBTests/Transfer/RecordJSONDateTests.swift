import Foundation
import Testing
import TweetieDB
import TweetieTestSupport
@testable import TweetieDBCore

/// Record JSON dates are written with gmtime (proleptic Gregorian) and must read back unchanged,
/// including before the Gregorian reform of 1582 (found by fuzzing: a tweet dated year 18 moved
/// by two days through export and import).
@Suite("Record JSON dates")
struct RecordJSONDateTests {
    @Test(arguments: ["0018-12-08T08:47:15.000Z", "0000-01-01T00:00:00.000Z", "1582-10-10T12:00:00.500Z", "1600-02-29T23:59:59.999Z",
                      "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00.000Z", "2018-12-08T08:47:15.123Z", "9999-12-31T23:59:59.999Z"])
    func writtenDatesReadBackUnchanged(text: String) throws {
        let date = try #require(RecordJSON.date(from: text))
        #expect(RecordJSON.string(from: date) == text)
    }

    @Test(arguments: ["-0195-01-13T10:20:30.400Z", "-0001-12-31T23:59:59.999Z", "-12345-06-07T00:00:00.000Z",
                      "+10000-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z"])
    func yearsOutsideFourDigitsTakeTheExpandedForm(text: String) throws {
        let date = try #require(RecordJSON.date(from: text))
        #expect(RecordJSON.string(from: date) == text)
        #expect(RecordJSON.string(from: date.addingTimeInterval(0.001)) != text)
    }

    @Test func expandedYearsCountBackwardsFromYearZero() throws {
        // Astronomical numbering, as gmtime's: year 0 is 1 BC, year -1 is 2 BC.
        let zero = try #require(RecordJSON.date(from: "0000-01-01T00:00:00Z"))
        let minusOne = try #require(RecordJSON.date(from: "-0001-01-01T00:00:00Z"))
        #expect(zero.timeIntervalSince(minusOne) == 365 * 86_400) // year -1 is not leap
        #expect(try #require(RecordJSON.date(from: "0001-01-01T00:00:00Z")).timeIntervalSince(zero) == 366 * 86_400) // year 0 is
        #expect(RecordJSON.date(from: "-0004-02-29T00:00:00Z") != nil)
        #expect(RecordJSON.date(from: "-0003-02-29T00:00:00Z") == nil)
    }

    @Test func proleptic_GregorianDaysMatchTheCivilCalendar() throws {
        #expect(RecordJSON.date(from: "1970-01-02T00:00:00Z")?.timeIntervalSince1970 == 86_400)
        #expect(RecordJSON.date(from: "2000-03-01T00:00:00Z")?.timeIntervalSince1970 == 951_868_800)
        #expect(RecordJSON.date(from: "0001-01-01T00:00:00Z")?.timeIntervalSince1970 == -62_135_596_800)
    }

    @Test func zonesAndFractionsAreHonoured() throws {
        let utc = try #require(RecordJSON.date(from: "2018-12-08T08:47:15Z"))
        #expect(RecordJSON.date(from: "2018-12-08T10:47:15+02:00") == utc)
        #expect(RecordJSON.date(from: "2018-12-08T03:17:15-0530") == utc)
        #expect(RecordJSON.date(from: "2018-12-08T08:47:15.1234Z")?.timeIntervalSince1970 == utc.timeIntervalSince1970 + 0.123)
    }

    @Test(arguments: ["", "2018-12-08", "2018-12-08T08:47:15", "2018-02-30T00:00:00Z", "2019-02-29T00:00:00Z", "2018-13-01T00:00:00Z",
                      "2018-12-08T24:00:00Z", "2018-12-08T08:60:00Z", "2018-12-08T08:47:15.Z", "2018-12-08T08:47:15Zjunk",
                      "+2018-12-08T08:47:15Z", "2018-12-08 08:47:15Z", "2018-12-08T08:47:15+2400", "１９７０-01-01T00:00:00Z",
                      "-0000-12-08T08:47:15Z", "+9999-12-31T00:00:00Z", "-195-01-13T00:00:00Z",
                      "+1234567890-01-01T00:00:00Z", "-T00:00:00Z"])
    func malformedDatesAreRejected(text: String) {
        #expect(RecordJSON.date(from: text) == nil)
    }

    /// The export's date writer (integer arithmetic) must write what `string(from:)` (gmtime)
    /// writes, for every millisecond: leap days, the ends of its years 0000…9999, negative times,
    /// halves of a millisecond, and beyond those years (where it hands over to `string(from:)`).
    @Test func byteWriterMatchesString() throws {
        var random = SeededRandom(seed: 0x15_0860)
        var seconds: [Double] = [0, -0.001, 0.0005, -0.0005, 0.0015, 951_782_400, 951_868_799.9995, 4_107_542_399.999,
                                 -62_167_219_200, -62_167_219_200.001, -62_167_219_200.0004, 253_402_300_799.999,
                                 253_402_300_799.9996, 253_402_300_800, -62_135_596_800, -12_219_292_800, 1e12, -1e12]
        for _ in 0..<20_000 {
            let milliseconds = Double(Int64.random(in: -70_000_000_000_000...260_000_000_000_000, using: &random))
            seconds.append(milliseconds / 1000)
            seconds.append((milliseconds + Double.random(in: -1...1, using: &random)) / 1000)
        }
        for second in seconds {
            let date = Date(timeIntervalSince1970: second)
            var bytes: [UInt8] = []
            ISO8601.append(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ISO8601.string(from: date), "\(second)")
        }
    }

    /// The civil dates day sections use are the dates the export writes (gmtime's): for days
    /// around the reform of 1582, year 0, the four-digit years' ends and as far as a date has a
    /// text; and they count days back exactly.
    @Test func civilDatesAreTheDatesTheExportWrites() throws {
        var random = SeededRandom(seed: 0xC1_711)
        var days = [0, -1, 1, -141_428, -141_427, -141_418, -719_528, -719_529, -719_162, 2_932_896, 2_932_897, -106_481_481_481, 106_481_481_481]
        for _ in 0..<20_000 {
            days.append(Int.random(in: -1_000_000...3_000_000, using: &random))
            days.append(Int.random(in: -106_481_481_481...106_481_481_480, using: &random))
        }
        for day in days {
            let civil = ISO8601.CivilDate(daysSince1970: day)
            #expect(ISO8601.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)) == civil.text + "T00:00:00.000Z", "\(day)")
            #expect(civil.daysSince1970 == day && ISO8601.CivilDate(year: civil.year, month: civil.month, day: civil.day) == civil, "\(day)")
            #expect(ISO8601.CivilDate(daysSince1970: day + 1).weekday == (civil.weekday + 1) % 7, "\(day)")
        }
        #expect(ISO8601.CivilDate(daysSince1970: 0).weekday == 4) // 1970-01-01, a Thursday
        #expect(try #require(ISO8601.CivilDate(year: 1582, month: 10, day: 15)).daysSince1970 - (try #require(ISO8601.CivilDate(year: 1582, month: 10, day: 4))).daysSince1970 == 11)
        #expect(ISO8601.CivilDate(year: 2019, month: 2, day: 29) == nil && ISO8601.CivilDate(year: -4, month: 2, day: 29) != nil)
        #expect(ISO8601.CivilDate(year: 2018, month: 13, day: 1) == nil && ISO8601.CivilDate(year: 2018, month: 4, day: 31) == nil)
        #expect(ISO8601.CivilDate(Date(timeIntervalSince1970: .nan)) == nil)
        #expect(ISO8601.yearText(-1) == "-0001" && ISO8601.yearText(0) == "0000" && ISO8601.yearText(10_000) == "+10000")
    }
}

@Suite("Record JSON dates in an export")
struct ExportedDateTests {
    @Test func recordsDatedOutsideYears0To9999ComeBackFromAnExport() throws {
        let source = try Store.temporary(collections: [Post.self, Member.self])
        defer { source.close() }
        let dates = ["-0195-01-13T10:20:30.400Z", "+10000-01-01T00:00:00.000Z", "2018-12-08T08:47:15.123Z"].map { RecordJSON.date(from: $0)! }
        try source.write { tx in
            for (offset, date) in dates.enumerated() {
                try tx.add(Post(id: Int64(offset + 1), author: "ann", text: "t", created: date, likes: 0))
            }
        }
        let exported = try TransferTests.export(source)
        #expect(String(decoding: exported, as: UTF8.self).contains(#""created":"-0195-01-13T10:20:30.400Z""#))
        let target = try Store.temporary(collections: [Post.self, Member.self])
        defer { target.close() }
        #expect(try TransferTests.importBytes(exported, into: target).records == dates.count)
        let back = try target.read { try $0.fetch(Query<Post>()) }
        #expect(back.map(\.created) == dates)
        #expect(try TransferTests.export(target) == exported)
    }
}

@Suite("Record JSON dates without a text")
struct DatesWithoutTextTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e17, -1e17])
    func anExportOfSuchADateFailsWithTheRecordsKeyInsteadOfCrashing(seconds: Double) throws {
        let store = try Store.temporary(collections: [Post.self, Member.self])
        defer { store.close() }
        try store.write { tx in
            try tx.add(Post(id: 1, author: "ann", text: "fine", created: Date(timeIntervalSince1970: 0), likes: 0))
            try tx.add(Post(id: 2, author: "ann", text: "far", created: Date(timeIntervalSince1970: seconds), likes: 0))
        }
        #expect(!ISO8601.hasText(Date(timeIntervalSince1970: seconds)))
        #expect {
            _ = try TransferTests.export(store)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .encodingFailed && error.message.contains("record 2 cannot be written as JSON") && error.message.contains("no ISO 8601 text")
        }
        // JSONEncoder with the record JSON strategy says the same, rather than trapping.
        #expect(throws: EncodingError.self) { try RecordJSON.encoder().encode(Date(timeIntervalSince1970: seconds)) }
    }

    @Test func theFarthestDatesWithATextRoundTrip() throws {
        for seconds in [9.1e15, -9.1e15, 2.5e14] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.hasText(date))
            let text = RecordJSON.string(from: date)
            #expect(RecordJSON.date(from: text).map(RecordJSON.string(from:)) == text, "\(text)")
        }
    }
}
