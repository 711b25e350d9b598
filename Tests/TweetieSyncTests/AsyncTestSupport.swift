import Foundation
import Testing
@testable import TweetieSync

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `body`, failing with `TimedOut` after `seconds`: a hang guard, never a delay (a passing
/// test returns as soon as `body` does).
func withTimeout<T: Sendable>(_ what: String, seconds: Double = 20, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            throw TimedOut(what: what)
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}

/// Moves a non-Sendable iterator into `@Sendable` closures; each test uses it from one task at a time.
final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// Pulls elements of any async sequence one at a time, each with a hang guard.
final class Pull<S: AsyncSequence & SendableMetatype>: @unchecked Sendable where S.Element: Sendable {
    private var iterator: S.AsyncIterator
    init(_ sequence: S) { iterator = sequence.makeAsyncIterator() }

    /// The next element (`nil` when the sequence ended).
    func next(_ what: String = "the next element") async throws -> S.Element? {
        try await withTimeout(what) { try await self.advance() }
    }

    private func advance() async throws -> S.Element? {
        try await iterator.next()
    }
}

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
