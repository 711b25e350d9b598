import Foundation

/// Where the executables are: this one, and `tweetie-db` beside it.
enum Executables {
    static var torture: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        // No argv at all (no /proc either, see tweetie-db's PathCheck): the working directory's.
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "tweetie-torture").standardizedFileURL.path
    }

    /// `tweetie-db` in the same directory, if it was built.
    static var tweetieDB: String? {
        let candidate = URL(fileURLWithPath: torture).deletingLastPathComponent().appendingPathComponent("tweetie-db").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
