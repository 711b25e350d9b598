import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = "test") {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/tweetiedb-\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func sub(_ name: String) -> String { "\(path)/\(name)" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

func bytes(_ string: String) -> [UInt8] { Array(string.utf8) }

func bigEndian(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
