import Foundation
import Logging

/// Serves Twitter responses from a directory laid out like the book's APICache.
///
/// Each request maps to the file `<endpoint path>-<param>-<value>-...` with the parameters
/// sorted by name, e.g. `lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift`, using
/// the same parameter sets as ``TwitterHTTPClient``. A missing file yields an empty result and
/// a log line; a file that is not the endpoint's JSON throws
/// ``TwitterAPIError/malformedJSON(source:reason:)`` naming the file. Returned statuses are
/// also filtered by the cursor, and no deletions are ever reported.
///
/// ```swift
/// let api = APICacheSource(directory: URL(fileURLWithPath: "fixtures/twitter-api-v1.1"))
/// let page = try await api.timeline(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                                   cursor: TimelineCursor())
/// ```
public struct APICacheSource: TwitterAPI {
    /// The cache's root directory.
    ///
    /// ```swift
    /// print(api.directory.path)
    /// ```
    public let directory: URL
    private let logger: Logger

    /// Creates a source reading from `directory`; `logger` receives missing-file and dropped-element lines.
    ///
    /// ```swift
    /// let api = APICacheSource(directory: cacheURL, logger: Logger(label: "cache"))
    /// ```
    public init(directory: URL, logger: Logger = Logger(label: "TweetieSync.APICacheSource")) {
        self.directory = directory
        self.logger = logger
    }

    /// The list timeline from `lists/statuses.json-…`, filtered by `cursor`.
    ///
    /// ```swift
    /// let page = try await api.timeline(of: list, cursor: TimelineCursor())
    /// ```
    public func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage {
        try statuses(for: .listTimeline(list, cursor: cursor), cursor: cursor)
    }

    /// A user timeline from `statuses/user_timeline.json-…`, filtered by `cursor`.
    ///
    /// ```swift
    /// let page = try await api.timeline(of: "fpillet", cursor: TimelineCursor())
    /// ```
    public func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage {
        try statuses(for: .userTimeline(username, cursor: cursor), cursor: cursor)
    }

    /// The list members from `lists/members.json-…`.
    ///
    /// ```swift
    /// let users = try await api.members(of: list).users
    /// ```
    public func members(of list: ListIdentifier) async throws -> MembersPage {
        let request = TwitterRequest.listMembers(list)
        guard let (data, path) = try read(request) else { return MembersPage(users: []) }
        let batch = try TwitterJSON.decodeMembers(data, source: path)
        logDropped(batch.dropped, path: path)
        return MembersPage(users: batch.items, dropped: batch.dropped)
    }

    /// The file a request maps to.
    ///
    /// ```swift
    /// api.fileURL(forTimelineOf: list, cursor: TimelineCursor()).lastPathComponent
    /// // "statuses.json-owner_screen_name-icanzilb-slug-RxSwift"
    /// ```
    public func fileURL(forTimelineOf list: ListIdentifier, cursor: TimelineCursor) -> URL {
        fileURL(for: .listTimeline(list, cursor: cursor))
    }

    private func fileURL(for request: TwitterRequest) -> URL {
        directory.appendingPathComponent(request.cacheName, isDirectory: false)
    }

    private func statuses(for request: TwitterRequest, cursor: TimelineCursor) throws -> TimelinePage {
        guard let (data, path) = try read(request) else { return TimelinePage(tweets: []) }
        let batch = try TwitterJSON.decodeStatuses(data, source: path)
        logDropped(batch.dropped, path: path)
        return TimelinePage(tweets: batch.items.filter { cursor.contains($0.id) }, dropped: batch.dropped)
    }

    /// The file's bytes and path, or nil (logged) when there is no such file.
    private func read(_ request: TwitterRequest) throws -> (Data, String)? {
        let url = fileURL(for: request)
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            logger.notice(
                "API cache has no file for request; returning an empty result",
                metadata: ["file": "\(path)", "endpoint": "\(request.path)"])
            return nil
        }
        do {
            return (try Data(contentsOf: url), path)
        } catch {
            throw TwitterAPIError.unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    private func logDropped(_ dropped: [DroppedElement], path: String) {
        guard !dropped.isEmpty else { return }
        logger.warning(
            "API cache file had elements that did not decode",
            metadata: ["file": "\(path)", "dropped": "\(dropped.map(\.description))"])
    }
}
