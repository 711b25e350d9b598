import Foundation

/// A fresh path under the system's temporary directory, for one test; `remove()` deletes it.
///
/// `create: false` leaves the path absent (a database directory a command must create itself).
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "test", create: Bool = true) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tweetie-\(label)-\(UUID().uuidString)").path
        if create { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    public var url: URL { URL(fileURLWithPath: path) }

    /// The path of `name` inside the directory.
    public func sub(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `data` to `relativePath`, creating the folders on the way.
    public func write(_ data: Data, to relativePath: String) throws {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
