import Testing
@testable import TweetieDBCore

/// `Paths.parent(of:)`: POSIX `dirname`, including the one-character relative paths on which
/// Foundation's `NSString.deletingLastPathComponent` traps on this toolchain.
@Suite("Paths")
struct PathsTests {
    @Test(arguments: [
        ("x", "."), ("db", "."), ("", "."), (".", "."), ("..", "."),
        ("a/b", "a"), ("a/b/", "a"), ("a//b", "a"), ("a/b//", "a"), ("./x", "."), ("../x", ".."),
        ("/x", "/"), ("/", "/"), ("//", "/"), ("/a/b/c", "/a/b"), ("/a/x", "/a"), ("é/ü", "é"),
    ] as [(String, String)])
    func parentIsWhatDirnameSays(path: String, parent: String) {
        #expect(Paths.parent(of: path) == parent, "\(path)")
    }
}
