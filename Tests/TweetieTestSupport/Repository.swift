import Foundation

/// Paths inside the repository, found from this file's place (`Tests/TweetieTestSupport/`), so
/// that a test file can move between folders without counting `..`s.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures`: the project's API cache and fuzz corpus.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures", isDirectory: true)
}
