import Foundation

/// Where the executables are: this one, and `tweetie-db` beside it.
enum Executables {
    static var torture: String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    /// `tweetie-db` in the same directory, if it was built.
    static var tweetieDB: String? {
        let candidate = URL(fileURLWithPath: torture).deletingLastPathComponent().appendingPathComponent("tweetie-db").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
