import ArgumentParser

/// Finds the unknown subcommand in an argument list, with the names it may have meant.
///
/// Rules: `help NAME…` names commands, so an unknown one there is a usage error (argument-parser
/// would print the root help with status 0); elsewhere a word where a command group expects a
/// subcommand is looked for only once parsing has failed (in a group with a default subcommand,
/// only a near miss counts). A suggestion is a subcommand within two edits, or one the word begins.
struct UnknownCommand {
    var word: String
    var path: [String]
    var suggestions: [String]

    var message: String {
        let did = suggestions.isEmpty ? "" : " Did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?"
        return "Error: '\(word)' is not a \(path.joined(separator: " ")) command.\(did)\nSee '\(path.joined(separator: " ")) --help' for the commands."
    }

    /// The unknown command `arguments` name, if any; `afterFailure` allows the check outside `help`.
    static func find(in arguments: [String], root: any ParsableCommand.Type, afterFailure: Bool) -> UnknownCommand? {
        var arguments = arguments[...]
        let isHelp = arguments.first == "help"
        if isHelp { arguments = arguments.dropFirst() } else if !afterFailure { return nil }
        var command = root
        var path = [root._commandName]
        for word in arguments where !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            var names: [String] = []
            var next: (any ParsableCommand.Type)?
            for subcommand in subcommands {
                let name = subcommand._commandName
                names.append(name)
                if name == word || subcommand.configuration.aliases.contains(word) { next = subcommand }
            }
            if let next {
                command = next
                path.append(word)
                continue
            }
            if names.isEmpty { return nil }
            let close = names.filter { editDistance($0, word) <= 2 || $0.hasPrefix(word) }
            // A group with a default subcommand passes other words to it: only a near miss of a
            // subcommand's name is taken for one.
            if !isHelp, command.configuration.defaultSubcommand != nil, close.isEmpty { return nil }
            return UnknownCommand(word: word, path: path, suggestions: close)
        }
        return nil
    }

    /// The Levenshtein distance between `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
