import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// How `once`, `status` and `prune` print, by `tweetie-db`'s output rule: `--format table|json`
/// chooses; without it, a table (lines of text) when standard output is a terminal, else one
/// JSON object.
enum SummaryFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json

    static let help = ArgumentHelp("table or json (default: table on a terminal, else json).")

    /// `requested`, else table on a terminal and JSON otherwise.
    static func resolve(_ requested: SummaryFormat?) -> SummaryFormat {
        requested ?? (isatty(STDOUT_FILENO) == 1 ? .table : .json)
    }
}
