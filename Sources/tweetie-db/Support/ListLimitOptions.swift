import ArgumentParser
import Foundation
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// `--limit` and `--all` of the listing commands (`tweets list`, `users list`), and how many rows
/// they print when neither is given.
///
/// Rules: `--limit N` prints at most N rows and `--all` every row; with neither, a listing on a
/// terminal stops after ``terminalDefault`` rows and says on stderr how many more there are
/// (`N more tweets — use --limit N or --all to print them`), and one going to a pipe or file
/// prints every row.
///
/// ```swift
/// @OptionGroup var limits: ListLimitOptions
/// try read.forEachPage(limit: limits.effectiveLimit) { … }
/// ```
struct ListLimitOptions: ParsableArguments {
    /// The rows a listing prints on a terminal when neither `--limit` nor `--all` is given.
    static let terminalDefault = 50

    @Option(parsing: .unconditional, help: "The most rows to print. Default: \(Self.terminalDefault) on a terminal, all otherwise.")
    var limit: Int?

    @Flag(help: "Print every row, on a terminal too.")
    var all = false

    @Option(name: .customLong("page-size"), help: ArgumentHelp("Rows read per read transaction.", visibility: .private))
    var pageSize = 1_000

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative.") }
        if limit != nil && all { throw ValidationError("--limit and --all cannot be used together.") }
        guard pageSize > 0 else { throw ValidationError("--page-size must be positive.") }
    }

    /// Whether the listing is cut at ``terminalDefault`` because standard output is a terminal.
    var usesTerminalDefault: Bool { limit == nil && !all && Terminal.isTerminal(STDOUT_FILENO) }

    /// The most rows to print, or nil for all.
    var effectiveLimit: Int? { usesTerminalDefault ? Self.terminalDefault : (all ? nil : limit) }

    /// Reads `read`'s rows page by page into `printer`; when the terminal default cut the
    /// listing, says on stderr how many `noun` (plural) were left out.
    ///
    /// ```swift
    /// try limits.list(read, into: &printer, noun: "tweets")
    /// ```
    func list<R: Record>(_ read: PagedRead<R>, into printer: inout RecordListPrinter<R>, noun: String) throws {
        var read = read
        read.pageSize = pageSize
        let last = try read.forEachPage(limit: effectiveLimit) { try printer.print($0) }
        printer.finish()
        guard usesTerminalDefault, printer.count == Self.terminalDefault else { return }
        let more = try read.count(after: last)
        if more > 0 { Out.error("\(more) more \(noun) — use --limit N or --all to print them") }
    }
}
