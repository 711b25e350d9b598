import Foundation
import Testing
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
