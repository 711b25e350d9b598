import ArgumentParser
import TweetieSync

/// `--durability full|no-meta-sync|no-sync`.
enum DurabilityArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case full
    case noMetaSync = "no-meta-sync"
    case noSync = "no-sync"

    var value: StoreConfiguration.Durability {
        switch self {
        case .full: .full
        case .noMetaSync: .noMetaSync
        case .noSync: .noSync
        }
    }
}
