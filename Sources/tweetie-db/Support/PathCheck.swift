import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks paths and arguments from the command line before anything is created at them.
///
/// Rules: an empty path is refused by name; a path the kernel would refuse (longer than `PATH_MAX`, or with a component longer than
/// `NAME_MAX`) is refused up front, so that no command creates the first directories of a path
/// it then cannot finish; a symbolic link whose target does not exist is named as such; an
/// argument that is not valid UTF-8 is refused, because Swift would silently turn it into a
/// different path (with U+FFFD in place of the bad bytes).
enum PathCheck {
    /// Throws a `CLIError` naming `role` (such as "--db") when `path` cannot be used.
    static func validate(_ path: String, role: String) throws {
        guard !path.isEmpty else {
            throw CLIError("\(role) is an empty path; give a file or directory name")
        }
        let length = path.utf8.count
        guard length < Int(PATH_MAX) else {
            throw CLIError("\(role) path too long: \(length) bytes, and the system limit (PATH_MAX) is \(PATH_MAX - 1); choose a shorter path")
        }
        if let component = path.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            throw CLIError("\(role) path too long: its component '\(component.prefix(40))…' is \(component.utf8.count) bytes, and the system limit (NAME_MAX) is \(NAME_MAX); choose a shorter name")
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) != 0 {
            let reason = errno == ELOOP ? "a loop of symbolic links" : String(cString: strerror(errno)).lowercased()
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw CLIError("\(role) \(path) is a symbolic link to \(target), which cannot be followed (\(reason)); fix or remove the link")
        }
    }

    /// Throws a `CLIError` when a command-line argument is not valid UTF-8.
    ///
    /// A process may have no argv at all, not even its name (`CommandLine.argc` 0): Swift's
    /// runtime finds the arguments through `/proc/self/maps`, and sees none where `/proc` is not
    /// mounted (a sandbox, a chroot), or when a launcher passes an empty argv to a kernel older
    /// than 5.18. There is nothing to check then, and the command runs as with no arguments.
    static func validateArgumentsAreUTF8() throws {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
            throw CLIError("argument \(index) ('\(String(cString: raw))') is not valid UTF-8; tweetie-db takes paths and names in UTF-8 only (rename the file or directory)")
        }
    }

    /// Throws a `CLIError` when the environment variable `name` is set but is not valid UTF-8.
    static func validateEnvironmentIsUTF8(_ name: String) throws {
        guard let raw = getenv(name), String(validatingCString: raw) == nil else { return }
        throw CLIError("$\(name) ('\(String(cString: raw))') is not valid UTF-8; tweetie-db takes paths in UTF-8 only (rename the directory, or pass --db)")
    }
}
