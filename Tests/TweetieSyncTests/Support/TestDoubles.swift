import Foundation
import Testing
@testable import TweetieSync

/// A reachability the test switches; counts how often it was asked.
final class SwitchReachability: Reachability, @unchecked Sendable {
    private let lock = NSLock()
    private var reachable: Bool
    private var checkCount = 0
    init(_ reachable: Bool) { self.reachable = reachable }
    func set(_ value: Bool) { lock.withLock { reachable = value } }
    var checks: Int { lock.withLock { checkCount } }
    func isReachable() async -> Bool { lock.withLock { checkCount += 1; return reachable } }
    var description: String { "switched by the test" }
}

/// Tweets and users for tests.
enum Sample {
    static let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")
    /// 2018-12-08 09:00:00 UTC, a Saturday.
    static let saturday = Date(timeIntervalSince1970: 1_544_259_600)

    static func tweet(_ id: Int64, _ username: String = "ann", at created: Date, text: String? = nil, lists: [String] = []) -> Tweet {
        Tweet(id: id, text: text ?? "tweet \(id)", name: username.capitalized, username: username, authorId: 7,
              created: created, imageURL: "https://example.com/\(username).png", retweetCount: 0, favoriteCount: 0, lists: lists)
    }

    static func user(_ id: Int64, _ username: String) -> User {
        User(id: id, name: username.capitalized, username: username, about: "about \(username)", url: "",
             imageURL: "https://example.com/\(username).png")
    }
}
