import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--force` and `--dry-run`, which every destructive command takes, and how it gets consent.
///
/// Rules: a command that deletes or overwrites stored records asks first — one question on
/// stderr, answered on standard input — when standard input is a terminal; anywhere else (a
/// script, a pipe, cron) it refuses with exit status 64 unless `--force` is given, because nobody
/// is there to answer. `--dry-run` says what the command would do, on standard output, and
/// changes nothing. Nothing is asked or refused when nothing stored would be lost.
struct DestructiveOptions: ParsableArguments {
    @Flag(help: "Do it without asking. Needed when standard input is not a terminal.")
    var force = false

    @Flag(help: "Print what would be deleted or replaced, and change nothing.")
    var dryRun = false

    func validate() throws {
        if force, dryRun { throw ValidationError("--force and --dry-run exclude each other: choose one.") }
    }

    /// Returns when the user agrees to `action` (a phrase such as "delete 2 tweets from PATH"):
    /// with `--force`, or with "y" or "yes" typed on the terminal. Throws otherwise.
    ///
    /// `canAsk` is false when standard input carries data (`import -`), so it cannot also answer.
    func confirm(_ action: String, canAsk: Bool = true) throws {
        if force { return }
        guard canAsk, Terminal.isTerminal(STDIN_FILENO) else {
            throw ValidationError("this would \(action), and standard input is not a terminal to confirm it: pass --force to do it anyway, or --dry-run to see what it would do.")
        }
        FileHandle.standardError.write(Data("This will \(action). Continue? [y/N] ".utf8))
        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw CLIError("nothing was changed (not confirmed)")
        }
    }
}

/// "1 tweet", "3 tweets": a count with its noun, singular or plural.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
