import Foundation
import ArgumentParser

// `--retention` and the span of time it reads: TimeSpan has no other user yet, so it lives beside
// the one option that parses one.

/// A span of time on the command line: a whole number and a unit, `s`, `m`, `h` or `d` (`90s`,
/// `12h`, `7d`), or `0`.
struct TimeSpan: ExpressibleByArgument, CustomStringConvertible {
    var duration: Duration
    var description: String

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text == "0" {
            duration = .zero
            description = text
            return
        }
        guard let unit = text.last, let count = Int64(text.dropLast()), count >= 0, count <= 100 * 365 * 86_400 else { return nil }
        switch unit {
        case "s": duration = .seconds(count)
        case "m": duration = .seconds(count * 60)
        case "h": duration = .seconds(count * 3_600)
        case "d": duration = .seconds(count * 86_400)
        default: return nil
        }
        guard duration <= .seconds(100 * 365 * 86_400) else { return nil }
        description = text
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `--retention`: how long the server keeps changes for a device that stays away.
struct RetentionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How long the server keeps changes for a device that stays away: a number and a unit, s, m, h or d (90s, 12h, 7d). A device away longer reads a snapshot when it comes back, which loses nothing it wrote.", valueName: "span"))
    var retention = TimeSpan(argument: "7d")!
}
