import Foundation

/// One-shot ingest runs, as `tweetie-db sync` performs them.
///
/// ```swift
/// let summary = try await TimelineSync.simulated(seed: 7, ticks: 10, into: store)
/// ```
public enum TimelineSync {
    /// Ingests everything a captured API cache holds for `list`: the list timeline, its members,
    /// and every user timeline present in the cache (plus those of the members).
    ///
    /// With `recording`, every response is also recorded there (``RecordingTwitterAPI``).
    ///
    /// ```swift
    /// try await TimelineSync.fromCache(directory: URL(fileURLWithPath: "fixtures"), list: list, into: store)
    /// ```
    public static func fromCache(directory: URL, list: ListIdentifier, recording: URL? = nil, into store: Store) async throws -> SyncSummary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TwitterAPIError.unreadableFile(path: directory.path, reason: "the API cache directory does not exist")
        }
        let api = recorded(APICacheSource(directory: directory), recording)
        var summary = SyncSummary()
        summary.add("list \(list.key)", try await TimelineIngest.ingest(try await api.timeline(of: list, cursor: TimelineCursor()), list: list, into: store))
        let members = try await api.members(of: list)
        summary.add("members \(list.key)", try await TimelineIngest.ingest(members, of: list, into: store))
        var usernames = Set(members.users.map(\.username))
        usernames.formUnion(cachedUserTimelines(in: directory))
        for username in usernames.sorted() {
            let page = try await api.timeline(of: username, cursor: TimelineCursor())
            summary.add("user \(username)", try await TimelineIngest.ingest(page, list: nil, into: store))
        }
        return summary
    }

    /// The usernames whose user timelines the cache holds (`statuses/user_timeline.json-…screen_name-NAME…`).
    static func cachedUserTimelines(in directory: URL) -> [String] {
        let folder = directory.appendingPathComponent("statuses")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> String? in
            guard name.hasPrefix("user_timeline.json-") else { return nil }
            let parts = name.split(separator: "-").map(String.init)
            guard let at = parts.firstIndex(of: "screen_name"), at + 1 < parts.count else { return nil }
            return parts[at + 1]
        }
    }

    /// Drives a ``SimulatedTwitterSource`` for `ticks` steps through a ``TimelineFetcher``: the
    /// members once, then per tick the source advances and the fetcher refreshes.
    ///
    /// With `recording`, every response is also recorded there (``RecordingTwitterAPI``), and the
    /// run fetches what a replay reads too: after the first refresh the fetcher loads older pages
    /// (`max_id`) until the oldest tweet, and after the last tick every member's user timeline is
    /// fetched and stored.
    ///
    /// ```swift
    /// try await TimelineSync.simulated(seed: 2018, ticks: 20, into: store)
    /// ```
    public static func simulated(seed: UInt64, ticks: Int, origin: Date? = nil, recording: URL? = nil, into store: Store) async throws -> SyncSummary {
        let simulated = origin.map { SimulatedTwitterSource(seed: seed, origin: $0) } ?? SimulatedTwitterSource(seed: seed)
        let source = recorded(simulated, recording)
        let list = simulated.list
        var summary = SyncSummary()
        let members = try await source.members(of: list)
        summary.add("members \(list.key)", try await TimelineIngest.ingest(members, of: list, into: store))
        let fetcher = TimelineFetcher(list: list, api: source, store: store, account: .authorized(token: "simulated"), reachability: AlwaysReachable())
        summary.add("list \(list.key) (step 0)", try await fetcher.refresh())
        if recording != nil {
            var page = 1
            while await !fetcher.reachedOldest {
                summary.add("list \(list.key) (older page \(page))", try await fetcher.loadOlder())
                page += 1
            }
        }
        for tick in 0..<max(0, ticks) {
            await simulated.advance()
            summary.add("list \(list.key) (step \(tick + 1))", try await fetcher.refresh())
        }
        if recording != nil {
            for username in members.users.map(\.username).sorted() {
                let page = try await source.timeline(of: username, cursor: TimelineCursor())
                summary.add("user \(username)", try await TimelineIngest.ingest(page, list: nil, into: store))
            }
        }
        return summary
    }

    private static func recorded(_ source: any TwitterAPI, _ cache: URL?) -> any TwitterAPI {
        cache.map { RecordingTwitterAPI(source, into: $0) } ?? source
    }

    /// One refresh of the list timeline and its members from the real API.
    ///
    /// With `recording`, every response is also recorded there (``RecordingTwitterAPI``), the way
    /// the book's API cache was recorded.
    ///
    /// ```swift
    /// try await TimelineSync.live(credentials: .bearerToken(token), list: list, into: store)
    /// ```
    public static func live(credentials: TwitterCredentials, list: ListIdentifier, recording: URL? = nil, into store: Store) async throws -> SyncSummary {
        let client = recorded(TwitterHTTPClient(credentials: credentials), recording)
        var summary = SyncSummary()
        let fetcher = TimelineFetcher(list: list, api: client, store: store, account: .authorized(token: "live"))
        summary.add("list \(list.key)", try await fetcher.refresh())
        summary.add("members \(list.key)", try await TimelineIngest.ingest(try await client.members(of: list), of: list, into: store))
        return summary
    }

    /// Credentials from the environment: `TWITTER_BEARER_TOKEN`, or `TWITTER_CONSUMER_KEY` and
    /// `TWITTER_CONSUMER_SECRET` (app-only `oauth2/token` flow).
    ///
    /// ```swift
    /// guard let credentials = TimelineSync.credentialsFromEnvironment() else { … }
    /// ```
    public static func credentialsFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TwitterCredentials? {
        if let token = environment["TWITTER_BEARER_TOKEN"], !token.isEmpty { return .bearerToken(token) }
        if let key = environment["TWITTER_CONSUMER_KEY"], let secret = environment["TWITTER_CONSUMER_SECRET"], !key.isEmpty, !secret.isEmpty {
            return .consumer(key: key, secret: secret)
        }
        return nil
    }
}
