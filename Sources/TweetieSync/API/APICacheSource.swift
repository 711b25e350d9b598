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
/// Only regular files are read (a symbolic link to one is followed): a directory, FIFO, device or
/// socket at a request's name throws ``TwitterAPIError/unreadableFile(path:reason:)`` saying what
/// it is, without opening it for a blocking read. A file larger than ``maximumFileSize``
/// (default ``defaultMaximumFileSize``, 32 MiB) is refused the same way before it is read.
/// Elements that do not decode are dropped and logged as one warning line that names the first
/// three and counts the rest.
///
/// ```swift
/// let api = APICacheSource(directory: URL(fileURLWithPath: "fixtures/twitter-api-v1.1"))
/// let page = try await api.timeline(of: ListIdentifier(username: "icanzilb", slug: "RxSwift"),
///                                   cursor: TimelineCursor())
/// ```
public struct APICacheSource: TwitterAPI {
    /// The cache's root directory.
    public let directory: URL
    /// The largest file, in bytes, this source reads; a larger one is an error.
    public let maximumFileSize: Int
    private let logger: Logger

    /// The default ``maximumFileSize``: 32 MiB, far above Twitter's largest v1.1 response
    /// (200 statuses, well under 1 MiB).
    ///
    /// ```swift
    /// APICacheSource.defaultMaximumFileSize   // 33554432
    /// ```
    public static let defaultMaximumFileSize = 32 << 20

    /// Creates a source reading from `directory`; `logger` receives missing-file and dropped-element lines.
    ///
    /// ```swift
    /// let api = APICacheSource(directory: cacheURL, logger: Logger(label: "cache"))
    /// ```
    public init(directory: URL, maximumFileSize: Int = APICacheSource.defaultMaximumFileSize,
                logger: Logger = Logger(label: "TweetieSync.APICacheSource")) {
        precondition(maximumFileSize >= 0, "maximumFileSize must not be negative")
        self.directory = directory
        self.maximumFileSize = maximumFileSize
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
        guard let (data, path) = try readFile(request) else { return MembersPage(users: []) }
        let batch = try TwitterJSON.decodeMembers(data, source: path)
        logDropped(batch, path: path)
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
        guard let (data, path) = try readFile(request) else { return TimelinePage(tweets: []) }
        let batch = try TwitterJSON.decodeStatuses(data, source: path)
        logDropped(batch, path: path)
        return TimelinePage(tweets: batch.items.filter { cursor.contains($0.id) }, dropped: batch.dropped)
    }

    /// The file's bytes and path, or nil (logged) when there is no such file.
    private func readFile(_ request: TwitterRequest) throws -> (Data, String)? {
        let path = fileURL(for: request).path
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then tells what it is.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT {
                logger.notice(
                    "API cache has no file for request; returning an empty result",
                    metadata: ["file": "\(path)", "endpoint": "\(request.path)"])
                return nil
            }
            throw TwitterAPIError.unreadableFile(path: path, reason: Self.describe(errno: code))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TwitterAPIError.unreadableFile(path: path, reason: Self.describe(errno: errno))
        }
        if let kind = Self.nonRegularKind(status.st_mode) {
            throw TwitterAPIError.unreadableFile(
                path: path, reason: "it is \(kind), not a regular file; the API cache reads only regular files")
        }
        guard Int64(status.st_size) <= Int64(maximumFileSize) else {
            throw TwitterAPIError.unreadableFile(path: path, reason: tooLarge("it is \(status.st_size) bytes"))
        }
        // Read at most one byte past the limit, in case the file grew since fstat.
        var data = Data(count: Int(status.st_size) + 1)
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TwitterAPIError.unreadableFile(path: path, reason: Self.describe(errno: errno))
            }
            if count == 0 { break }
            filled += count
            if filled == data.count, filled <= maximumFileSize { data.count += min(64 << 10, maximumFileSize + 1 - filled) }
        }
        guard filled <= maximumFileSize else {
            throw TwitterAPIError.unreadableFile(path: path, reason: tooLarge("it grew past the limit while being read"))
        }
        data.count = filled
        return (data, path)
    }

    private func tooLarge(_ what: String) -> String {
        "\(what), more than the \(Self.describe(bytes: maximumFileSize)) an API cache file may hold"
    }

    /// `a directory`, `a FIFO (named pipe)`, … for anything but a regular file; nil for a regular file.
    private static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "an unknown kind of file (mode \(String(mode, radix: 8)))"
        }
    }

    private static func describe(errno code: Int32) -> String {
        code == EACCES ? "permission denied" : String(cString: strerror(code))
    }

    /// `32 MiB` for whole mebibytes, else the byte count.
    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    private func logDropped<T>(_ batch: DecodedBatch<T>, path: String) {
        guard !batch.dropped.isEmpty else { return }
        logger.warning(
            "API cache file had elements that did not decode",
            metadata: ["file": "\(path)",
                       "dropped": "\(DroppedElement.summary(of: batch.dropped, total: batch.items.count + batch.dropped.count))"])
    }
}
