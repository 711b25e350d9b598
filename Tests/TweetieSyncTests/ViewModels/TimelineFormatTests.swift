import Foundation
import Testing
import TweetieDB
@testable import TweetieSync

@Suite("Timeline formats and reachability")
struct TimelineFormatTests {
    /// 2018-12-08 08:47:15 UTC, a Saturday.
    static let posted = Date(timeIntervalSince1970: 1_544_258_835)

    static let ages: [(age: Double, expected: String)] = [
        (0, "0s"), (-30, "0s"), (59.9, "59s"), (60, "1m"), (3_599, "59m"), (3_600, "1h"), (86_399, "23h"),
        (86_400, "1d"), (6 * 86_400 + 86_399, "6d"), (7 * 86_400, "Dec 8"), (400 * 86_400, "Dec 8, 2018"),
    ]

    @Test func relativeTime() {
        for (age, expected) in Self.ages {
            #expect(TimelineFormat.relativeTime(of: Self.posted, now: Self.posted + age) == expected, "age \(age)")
        }
    }

    @Test func dayKeysAndTitlesAreUTC() {
        #expect(TimelineFormat.dayKey(of: Self.posted) == "2018-12-08")
        #expect(TimelineFormat.dayTitle(of: Self.posted, now: Self.posted) == "Saturday, Dec 8")
        #expect(TimelineFormat.dayTitle(of: Self.posted, now: Self.posted + 365 * 86_400) == "Saturday, Dec 8, 2018")
        let lastSecond = Date(timeIntervalSince1970: 1_544_313_599)    // 2018-12-08 23:59:59 UTC
        #expect(TimelineDay(lastSecond) == TimelineDay(Self.posted))
        #expect(TimelineDay(lastSecond + 1) > TimelineDay(Self.posted))
        #expect(TimelineDay(lastSecond + 1).key == "2018-12-09")
        #expect(TimelineDay(Date(timeIntervalSince1970: -1)).key == "1969-12-31")
        #expect(TimelineDay(Self.posted).start == Date(timeIntervalSince1970: 1_544_227_200))
    }

    /// Day keys, titles and dates of relative times are days of the export's calendar
    /// (proleptic Gregorian, astronomical years), whatever the year: not Foundation's Gregorian
    /// calendar, which turns Julian before October 1582 and counts years by era.
    @Test(arguments: [
        ("1000-01-01T12:00:00.000Z", "Wednesday, Jan 1, 1000"), ("1582-10-04T00:00:00.000Z", "Monday, Oct 4, 1582"),
        ("1582-10-15T23:59:59.999Z", "Friday, Oct 15, 1582"), ("0001-01-01T00:00:00.000Z", "Monday, Jan 1, 1"),
        ("0000-06-01T08:00:00.000Z", "Thursday, Jun 1, 0"), ("-0195-01-13T10:20:30.400Z", "Sunday, Jan 13, -195"),
        ("+10000-01-01T00:00:00.000Z", "Saturday, Jan 1, 10000"), ("-12345-06-07T00:00:00.000Z", nil),
        ("+275760-09-13T00:00:00.000Z", nil), ("9999-12-31T23:59:59.999Z", "Friday, Dec 31, 9999"),
    ])
    func daysAreInTheExportsCalendarForEveryYear(text: String, title: String?) throws {
        let date = try #require(RecordJSON.date(from: text))
        let day = TimelineDay(date)
        let dateText = String(text.prefix { $0 != "T" })
        #expect(day.key == dateText)
        #expect(TimelineFormat.dayKey(of: date) == dateText)
        // The key is the date part of the export's text of the day's first instant.
        #expect(RecordJSON.string(from: day.start) == dateText + "T00:00:00.000Z")
        let dayTitle = day.title(now: Self.posted)
        if let title { #expect(dayTitle == title) }
        // Relative times of earlier dates give the same day and year as the title.
        let parts = dayTitle.split(separator: ", ")
        if date < Self.posted {
            #expect(TimelineFormat.relativeTime(of: date, now: Self.posted) == parts.dropFirst().joined(separator: ", "), "\(dayTitle)")
        }
        #expect(day.title(now: date) == String(parts[0] + ", " + parts[1]))
    }

    @Test func consecutiveDaysHaveConsecutiveKeysAcrossTheReformAndYearZero() throws {
        for start in ["1582-09-20T00:00:00Z", "-0001-12-20T00:00:00Z", "9999-12-20T00:00:00Z", "1969-12-25T00:00:00Z"] {
            let first = TimelineDay(try #require(RecordJSON.date(from: start)))
            for offset in 0..<30 {
                let day = TimelineDay(first.start + Double(offset) * 86_400)
                #expect(day.daysSince1970 == first.daysSince1970 + offset)
                let civil = ISO8601.CivilDate(daysSince1970: day.daysSince1970)
                #expect(civil.daysSince1970 == day.daysSince1970 && civil.text == day.key)
                #expect(RecordJSON.date(from: day.key + "T00:00:00Z") == day.start, "\(day.key)")
            }
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300])
    func aDateWithoutADayGetsAnEdgeDayInsteadOfTrapping(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let day = TimelineDay(date)
        #expect(TimelineDay.days.contains(day.daysSince1970))
        #expect(!day.key.isEmpty && !day.title(now: Self.posted).isEmpty)
        #expect(!TimelineFormat.relativeTime(of: date, now: Self.posted).isEmpty)
    }

    @Test func rowFromTweet() {
        let tweet = Sample.tweet(42, "icanzilb", at: Self.posted, text: "Hello")
        let row = TimelineRow(tweet, now: Self.posted + 2 * 86_400)
        #expect(row == TimelineRow(id: 42, author: "Icanzilb", handle: "@icanzilb", text: "Hello", relativeTime: "2d",
                                   imageURL: "https://example.com/icanzilb.png", created: Self.posted))
        var later = TimelineRow(tweet, now: Self.posted + 3 * 86_400)
        #expect(later != row && later.hasSameContent(as: row))
        later.text = "changed"
        #expect(!later.hasSameContent(as: row))
    }

    @Test func interfaceReachabilityNeverCountsLoopback() async {
        let reachability = InterfaceReachability()
        let interfaces = reachability.upInterfaces()
        #expect(!interfaces.contains("lo"))
        #expect(interfaces == interfaces.sorted() && Set(interfaces).count == interfaces.count)
        #expect(await reachability.isReachable() == !interfaces.isEmpty)
        #expect(reachability.description.contains("does not prove"))
        #expect(await AlwaysReachable().isReachable())
    }

    @Test func accountStatus() {
        #expect(AccountStatus.authorized(token: "t").isAuthorized)
        #expect(!AccountStatus.unavailable.isAuthorized)
        #expect(TimelineTarget.list(Sample.list).description == "list icanzilb/RxSwift")
        #expect(TimelineTarget.user("fpillet").description == "user @fpillet")
    }
}
