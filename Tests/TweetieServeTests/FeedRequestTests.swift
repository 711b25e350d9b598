import HummingbirdCore
import Testing
@testable import TweetieServe
import TweetieSync

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
                      "after=5.5F3A9C0E12AB34CD", "after=5.5f3a", "after=0.5f3a9c0e12ab34cd", "after=5.", "color=red", "moves=1&moves=0",
                      "after=1&after=2"])
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

    @Test(arguments: ["abc", "", "-1", "01", "5, 6", "5.xyz", "5.5f3a9c0e12ab34cd0"])
    func aMalformedLastEventIDIsABadRequestWithOrWithoutAfter(lastEventID: String) {
        for feed in Self.feeds {
            for query in ["", "?after=5"] {
                #expect(Self.isBadRequest(Self.parse(feed + query, lastEventID: lastEventID)), "\(feed)\(query), Last-Event-ID '\(lastEventID)'")
            }
        }
    }

    @Test func wellFormedPositionsResumeAndTheHeaderWinsOverAfter() throws {
        let three = ChangeLogPosition("3.5f3a9c0e12ab34cd"), seven = ChangeLogPosition("7.0000000000000001")
        #expect(three != nil && seven != nil)
        #expect(try Self.parse("/feeds/list?after=3.5f3a9c0e12ab34cd").get().after == three)
        #expect(try Self.parse("/feeds/list", lastEventID: "7.0000000000000001").get().after == seven)
        #expect(try Self.parse("/feeds/list?after=3.5f3a9c0e12ab34cd", lastEventID: "7.0000000000000001").get().after == seven)
        // A bare sequence parses (it resumes with a reset: it names no commit).
        #expect(try Self.parse("/feeds/list?after=3").get().after == ChangeLogPosition(sequence: 3, commitID: nil))
        #expect(try Self.parse("/feeds/people?sections=none&moves=0&after=0").get().after == .origin)
        #expect(try Self.parse("/feeds/list").get().after == nil)
    }
}
