import ArgumentParser
import Foundation

/// The exit statuses of `tweetie-db`, as `tweetie-db --help` and the README list them.
///
/// Rules: 0 means the command did what was asked; 1 a runtime failure, told in one sentence on
/// stderr (no database, an unreadable or invalid input, a failed write); 2 that `verify` could not
/// conclude (its checking process could not run or was killed); 3 that `verify` found problems;
/// 64 a usage error (an unknown command or option, a bad value, a missing `--force`), as
/// `EX_USAGE` of sysexits.h; 128+N that signal N ended the command.
enum ExitStatus {
    static let failure: Int32 = 1
    static let inconclusive: Int32 = 2
    static let problemsFound: Int32 = 3
    static let usage: Int32 = 64

    /// The paragraph the root help ends with.
    static let help = """
        Exit status: 0 done; 1 failed (one sentence on stderr); 2 verify could not conclude; \
        3 verify found problems; 64 usage error (unknown command or option, bad value, missing \
        --force); 128+N ended by signal N (130 for Ctrl-C).
        """
}
