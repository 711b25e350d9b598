import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a subcommand prints records.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson

    /// Table on a terminal, NDJSON otherwise.
    static var automatic: OutputFormat { Terminal.isTerminal(STDOUT_FILENO) ? .table : .ndjson }
}
