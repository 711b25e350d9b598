/// Path arithmetic on plain strings, for the store and its tools.
///
/// Why: Foundation's `NSString` path methods are not safe here. On this toolchain
/// (swift-corelibs-foundation with Swift 6.3.1), `("x" as NSString).deletingLastPathComponent`
/// traps for any one-character relative path, so `tweetie-db import tweets.ndjson --db x`
/// crashed. Use these functions instead of `NSString`'s for any path a user gives.
///
/// ```swift
/// Paths.parent(of: "backups/2026") // "backups"
/// Paths.parent(of: "x")            // "." (the working directory), not ""
/// ```
package enum Paths {
    /// The directory that holds `path`, as POSIX `dirname` names it: `"a/b"` → `"a"`,
    /// `"a/b/"` → `"a"`, `"b"` → `"."`, `"/b"` → `"/"`, `"/"` → `"/"`, `""` → `"."`.
    ///
    /// Stop a walk up a relative path at `"."`, an absolute one at `"/"`:
    ///
    /// ```swift
    /// var directory = path
    /// while directory != ".", directory != "/", !exists(directory) { directory = Paths.parent(of: directory) }
    /// ```
    package static func parent(of path: String) -> String {
        let slash = UInt8(ascii: "/")
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        guard var end = bytes.lastIndex(of: slash) else { return "." }
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }
}
