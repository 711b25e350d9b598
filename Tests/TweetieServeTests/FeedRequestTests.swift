import HummingbirdCore
import Testing
@testable import TweetieServe

/// Feed requests as the responder parses them: every parameter of every feed is checked, whatever
/// else the request carries.
@Suite("FeedRequest refuses every malformed parameter, whatever else the request carries")
struct FeedRequestTests {
    static func parse(_ uri: String, lastEventID: String? = nil, acceptsEvents: Bool = true) -> Result<FeedRequest, FeedRequest.Problem> {
        let uri = URI(uri)
        return FeedRequest.parse(path: uri.path, query: uri.queryParameters, lastEventID: lastEventID,
                                 acceptsEvents: acceptsEvents, ifNoneMatch: nil)
    }

    static func isBadRequest(_ result: Result<FeedRequest, FeedRequest.Problem>) -> Bool {
        if case .failure(.badRequest) = result { return true }
        return false
    }

    static let feeds = ["/feeds/list", "/feeds/person/mayalindqvist", "/feeds/people"]

    @Test(arguments: ["sections=week", "moves=yes", "after=abc", "after=-1", "after=", "after=01", "after=18446744073709551616",
                      "color=red", "moves=1&moves=0", "after=1&after=2"])
    func aMalformedParameterIsABadRequestWithOrWithoutALastEventIDOnEveryFeed(query: String) {
        for feed in Self.feeds {
            for lastEventID in [nil, "5"] {
                for acceptsEvents in [true, false] {
                    let result = Self.parse("\(feed)?\(query)", lastEventID: lastEventID, acceptsEvents: acceptsEvents)
                    #expect(Self.isBadRequest(result), "\(feed)?\(query), Last-Event-ID \(lastEventID ?? "none"), stream \(acceptsEvents)")
                }
            }
        }
    }

    @Test(arguments: ["abc", "", "-1", "01", "5, 6"])
    func aMalformedLastEventIDIsABadRequestWithOrWithoutAfter(lastEventID: String) {
        for feed in Self.feeds {
            for query in ["", "?after=5"] {
                #expect(Self.isBadRequest(Self.parse(feed + query, lastEventID: lastEventID)), "\(feed)\(query), Last-Event-ID '\(lastEventID)'")
            }
        }
    }

    @Test func wellFormedPositionsResumeAndTheHeaderWinsOverAfter() throws {
        #expect(try Self.parse("/feeds/list?after=3").get().after == 3)
        #expect(try Self.parse("/feeds/list", lastEventID: "7").get().after == 7)
        #expect(try Self.parse("/feeds/list?after=3", lastEventID: "7").get().after == 7)
        #expect(try Self.parse("/feeds/people?sections=none&moves=0&after=0").get().after == 0)
        #expect(try Self.parse("/feeds/list").get().after == nil)
    }
}
