import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a command prints its result on standard output: the one output rule of `tweetie-db`.
///
/// Rules, for every command that prints a result (`stats`, `sync`, `verify`, `schema`,
/// `bench reads`, `bench writes`, `tweets list`, `tweets show`, `users list`, `users show`):
/// - `--format table|json|ndjson` chooses; without it, `table` when standard output is a
///   terminal, else the command's machine format: `ndjson` for a list of records (`tweets list`,
///   `users list`, `schema`), `json` for one report or record (`stats`, `sync`, `verify`,
///   `bench`, `tweets show`, `users show`).
/// - `json` is one JSON document: a report or record pretty-printed; a list as an array with one
///   record per line, streamed. `ndjson` is one compact JSON value per line.
/// - A table fits the terminal's width (`$COLUMNS` when set), every line of it, long cells cut
///   with `…` (``TextTable``; a field list wraps instead, ``fieldTable(_:width:)``); going to a
///   pipe or a file it is never cut, unless `COLUMNS` is set.
/// - Tables and field lists show control characters as visible stand-ins (``VisibleText``); the
///   machine formats keep the exact text.
/// - Ids appear in JSON as numbers and as string twins (`idStr`, `authorIdStr`, …).
/// - Messages, progress and summaries of commands whose output is data (`export`, `backup -`,
///   `import`) go to standard error as text.
///
/// ```swift
/// @Option(help: OutputFormat.help(for: .list)) var format: OutputFormat?
/// let chosen = OutputFormat.resolve(format, for: .list)   // .table on a terminal, else .ndjson
/// ```
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson

    /// What a command prints, which decides its machine format.
    ///
    /// ```swift
    /// OutputFormat.resolve(nil, for: .report)   // .json when piped
    /// ```
    enum Shape {
        /// A list of records: NDJSON when piped.
        case list
        /// One report or record: JSON when piped.
        case report

        /// The format used when standard output is not a terminal.
        var machineFormat: OutputFormat { self == .list ? .ndjson : .json }
    }

    /// The format to print in: `requested`, else table on a terminal and the shape's machine
    /// format otherwise.
    ///
    /// ```swift
    /// let format = OutputFormat.resolve(nil, for: .report)
    /// ```
    static func resolve(_ requested: OutputFormat?, for shape: Shape) -> OutputFormat {
        requested ?? (Terminal.isTerminal(STDOUT_FILENO) ? .table : shape.machineFormat)
    }

    /// The paragraph of the root help that states the rule.
    ///
    /// ```swift
    /// discussion: "…\n\n\(OutputFormat.ruleHelp)"
    /// ```
    static let ruleHelp = """
        Output: every command that prints a result takes --format table|json|ndjson. The default \
        is a table on a terminal; piped, NDJSON for lists (tweets list, users list, schema) and \
        JSON for reports (stats, sync, verify, bench, tweets show, users show). Tables fit \
        the terminal's width or $COLUMNS (long cells cut with …, shown values wrapped), never cut \
        when piped without COLUMNS, and show control characters as ␛, ␍, <U+202E>…; JSON keeps \
        the exact text. Lists stop after \
        \(ListLimitOptions.terminalDefault) rows on a terminal (--limit N, --all).
        """

    /// The help text of a command's `--format`, naming its default.
    ///
    /// ```swift
    /// @Option(help: OutputFormat.help(for: .report)) var format: OutputFormat?
    /// ```
    static func help(for shape: Shape) -> ArgumentHelp {
        ArgumentHelp(
            "The output format: table, json, or ndjson. Default: table on a terminal, \(shape.machineFormat.rawValue) otherwise.",
            discussion: "json is one document (a list is an array, one record per line); ndjson is one compact JSON value per line. A table fits the terminal's width, or $COLUMNS when set (long cells cut with …); piped without COLUMNS it is never cut. Tables show control characters visibly (␛, ␍, <U+202E>); json and ndjson keep the exact text.",
            valueName: "format")
    }
}
