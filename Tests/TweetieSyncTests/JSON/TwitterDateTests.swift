import Foundation
import Testing
@testable import TweetieSync

@Suite("TwitterDate")
struct TwitterDateTests {
    @Test func parsesTwitterFormatAsUTC() throws {
        let date = try #require(TwitterDate.parse("Sat Dec 08 08:47:15 +0000 2018"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        #expect(parts.year == 2018 && parts.month == 12 && parts.day == 8)
        #expect(parts.hour == 8 && parts.minute == 47 && parts.second == 15)
    }

    @Test func honoursOffsets() throws {
        let utc = try #require(TwitterDate.parse("Sat Dec 08 08:47:15 +0000 2018"))
        let plusTwo = try #require(TwitterDate.parse("Sat Dec 08 10:47:15 +0200 2018"))
        let minusFiveThirty = try #require(TwitterDate.parse("Sat Dec 08 03:17:15 -0530 2018"))
        #expect(utc == plusTwo)
        #expect(utc == minusFiveThirty)
    }

    @Test func handlesLeapDaysAndOldDates() throws {
        #expect(TwitterDate.parse("Thu Feb 29 12:00:00 +0000 2024") != nil)
        #expect(TwitterDate.parse("Wed Feb 29 12:00:00 +0000 2023") == nil)   // 2023 is no leap year
        let epoch = try #require(TwitterDate.parse("Thu Jan 01 00:00:00 +0000 1970"))
        #expect(epoch.timeIntervalSince1970 == 0)
        let before = try #require(TwitterDate.parse("Wed Dec 31 23:59:59 +0000 1969"))
        #expect(before.timeIntervalSince1970 == -1)
    }

    @Test(arguments: [
        "", "Sat Dec 08 08:47:15 +0000 18", "2018-12-08T08:47:15Z", "Sat Dez 08 08:47:15 +0000 2018",
        "Sun Dec 08 08:47:15 +0000 2018", "Sat Dec 32 08:47:15 +0000 2018", "Sat Dec 08 24:47:15 +0000 2018",
        "Sat Dec 08 08:47:15 0000 2018", "Sat Dec 08 08:47:15 +0000 2018 ", "Sat Dec 08 08-47-15 +0000 2018",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(TwitterDate.parse(text) == nil)
    }

    @Test func formatRoundTripsAcrossYears() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<2_000 {
            let seconds = rng.int(in: -2_000_000_000...4_000_000_000)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = TwitterDate.format(date)
            #expect(TwitterDate.parse(text) == date, "\(text)")
        }
    }

    @Test func agreesWithPOSIXDateFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: TimeInterval(rng.int(in: 0...2_000_000_000)))
            let text = formatter.string(from: date)
            #expect(TwitterDate.parse(text) == formatter.date(from: text), "\(text)")
        }
    }
}
