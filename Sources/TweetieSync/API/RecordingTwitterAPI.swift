import Foundation

/// A source that forwards every request to another source and records each response into a
/// directory laid out like the book's APICache, for ``APICacheSource`` to replay.
///
/// Each response is written, whole and atomically (a temporary file renamed into place), to the
/// file ``APICacheSource`` reads for the same request (`lists/statuses.json-…`,
/// `statuses/user_timeline.json-…`, `lists/members.json-…`), as the Twitter v1.1 JSON of
/// ``TwitterJSON/encodeStatuses(_:)`` and ``TwitterJSON/encodeMembers(_:)``; a later response to
/// the same request replaces the earlier one. What a REST cache cannot hold is left out:
/// ``TimelinePage/deletedIds`` and ``TimelinePage/dropped``. A request that fails is recorded as
/// nothing and its error passes through; a response that cannot be written throws
/// ``TwitterAPIError/unwritableFile(path:reason:)``.
///
/// ```swift
/// let source = RecordingTwitterAPI(SimulatedTwitterSource(seed: 2018), into: URL(fileURLWithPath: "cache"))
/// _ = try await source.members(of: list)   // writes cache/lists/members.json-count-100-…
/// ```
public struct RecordingTwitterAPI: TwitterAPI {
    /// The source whose responses are recorded.
    ///
    /// ```swift
    /// let inner = recorder.base
    /// ```
    public let base: any TwitterAPI
    /// The cache directory written to (created when missing).
    public let directory: URL

    /// Records `base`'s responses into `directory`.
    ///
    /// ```swift
    /// let recorder = RecordingTwitterAPI(client, into: URL(fileURLWithPath: "cache"))
    /// ```
    public init(_ base: any TwitterAPI, into directory: URL) {
        self.base = base
        self.directory = directory
    }

    /// The base source's list timeline, recorded under `lists/statuses.json-…`.
    ///
    /// ```swift
    /// let page = try await recorder.timeline(of: list, cursor: TimelineCursor())
    /// ```
    public func timeline(of list: ListIdentifier, cursor: TimelineCursor) async throws -> TimelinePage {
        let page = try await base.timeline(of: list, cursor: cursor)
        try record(try TwitterJSON.encodeStatuses(page.tweets), for: .listTimeline(list, cursor: cursor))
        return page
    }

    /// The base source's user timeline, recorded under `statuses/user_timeline.json-…`.
    ///
    /// ```swift
    /// let page = try await recorder.timeline(of: "icanzilb", cursor: TimelineCursor())
    /// ```
    public func timeline(of username: String, cursor: TimelineCursor) async throws -> TimelinePage {
        let page = try await base.timeline(of: username, cursor: cursor)
        try record(try TwitterJSON.encodeStatuses(page.tweets), for: .userTimeline(username, cursor: cursor))
        return page
    }

    /// The base source's list members, recorded under `lists/members.json-…`.
    ///
    /// ```swift
    /// let members = try await recorder.members(of: list)
    /// ```
    public func members(of list: ListIdentifier) async throws -> MembersPage {
        let page = try await base.members(of: list)
        try record(try TwitterJSON.encodeMembers(page.users), for: .listMembers(list))
        return page
    }

    private func record(_ body: Data, for request: TwitterRequest) throws {
        let url = directory.appendingPathComponent(request.cacheName, isDirectory: false)
        do {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw TwitterAPIError.unwritableFile(path: url.path, reason: "a directory is in the way")
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try body.write(to: url, options: .atomic)
        } catch let error as TwitterAPIError {
            throw error
        } catch {
            throw TwitterAPIError.unwritableFile(path: url.path, reason: error.localizedDescription)
        }
    }
}
