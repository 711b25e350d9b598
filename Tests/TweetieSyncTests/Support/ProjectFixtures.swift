import Foundation
@testable import TweetieSync
import TweetieTestSupport

/// The project's own API cache, `Tests/Fixtures/APICache`, recorded from the simulated source by
/// `tweetie-db sync --simulated --seed 2018 --ticks 6 --record-api-cache …` (see its README).
enum ProjectFixtures {
    static let directory = Repository.fixtures.appendingPathComponent("APICache", isDirectory: true)
    static let seed: UInt64 = 2018
    static let ticks = 6
    static let list = ListIdentifier(username: "icanzilb", slug: "RxSwift")

    static let newestPageFile = "lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift"
    static let membersFile =
        "lists/members.json-count-100-include_entities-false-owner_screen_name-icanzilb-skip_status-1-slug-RxSwift"

    /// Every file of the cache, relative to ``directory``, sorted.
    static func files(in root: URL = directory) throws -> [String] {
        var names: [String] = []
        for folder in ["lists", "statuses"] {
            let path = root.appendingPathComponent(folder).path
            names += try FileManager.default.contentsOfDirectory(atPath: path).map { "\(folder)/\($0)" }
        }
        return names.sorted()
    }

    /// The status files (list and user timelines).
    static func statusFiles() throws -> [String] { try files().filter { $0 != membersFile } }

    /// The list timeline files whose request carried `parameter` (`max_id` or `since_id`).
    static func listFiles(with parameter: String) throws -> [String] {
        try files().filter { $0.hasPrefix("lists/statuses.json-") && $0.contains("-\(parameter)-") }
    }

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(file))
    }

    /// The file's JSON array, each status as a dictionary (ids read from `id_str`, never as numbers).
    static func rawStatuses(_ file: String) throws -> [[String: Any]] {
        guard let array = try JSONSerialization.jsonObject(with: data(file)) as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return array
    }

    static func ids(_ file: String) throws -> [Int64] {
        try rawStatuses(file).map { Int64($0["id_str"] as! String)! }
    }
}
