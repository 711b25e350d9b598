import ArgumentParser
import TweetieSync

/// Where `demo` and `sync` get tweets: a captured API cache, the live API, or the simulated source.
struct SourceOptions: ParsableArguments {
    @Option(help: "A captured API cache directory (laid out as lists/statuses.json-…, statuses/user_timeline.json-…; regular files of at most 32 MiB).")
    var apiCache: String?

    @Flag(help: "Use the live Twitter API v1.1 (TWITTER_BEARER_TOKEN, or TWITTER_CONSUMER_KEY and TWITTER_CONSUMER_SECRET).")
    var live = false

    @Option(help: "The simulated source's seed; the same seed gives the same tweets.")
    var seed: UInt64 = 2018

    @Option(help: "The list, as OWNER/SLUG (the simulated source always serves icanzilb/RxSwift).")
    var list: String = ListIdentifier.rxSwift.key

    /// Checks the choice; `simulatedFlag` is `sync`'s explicit `--simulated` (nil for `demo`, where
    /// the simulated source is the default).
    func validate(simulatedFlag: Bool?) throws {
        let chosen = [apiCache != nil, live, simulatedFlag ?? false].filter { $0 }.count
        if let _ = simulatedFlag {
            guard chosen == 1 else { throw ValidationError("choose exactly one source: --api-cache DIR, --simulated or --live.") }
        } else {
            guard chosen <= 1 else { throw ValidationError("choose one source: --api-cache DIR or --live (or neither, for the simulated source).") }
        }
        _ = try parseList(list)
        if live, TimelineSync.credentialsFromEnvironment() == nil {
            throw ValidationError("--live needs TWITTER_BEARER_TOKEN, or TWITTER_CONSUMER_KEY and TWITTER_CONSUMER_SECRET, in the environment.")
        }
    }

    var listIdentifier: ListIdentifier { (try? ListIdentifier(parsing: list)) ?? .rxSwift }
}
