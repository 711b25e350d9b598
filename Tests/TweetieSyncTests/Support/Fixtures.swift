import Foundation

/// Where the real captures of the book's API cache are: the folder named by `TWEETIE_FIXTURES`.
///
/// They are an extra layer over the project's own fixtures (``ProjectFixtures``): the tests that
/// read them run only when the variable names an existing folder, and are skipped otherwise with
/// one line saying why.
enum Fixtures {
    static let variable = "TWEETIE_FIXTURES"

    /// The folder, when `TWEETIE_FIXTURES` names an existing one.
    static var directory: URL? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    static var isAvailable: Bool { directory != nil }

    /// Why the real-capture tests are skipped, in one line.
    static var disabledReason: Comment {
        let path = ProcessInfo.processInfo.environment[variable] ?? ""
        if path.isEmpty {
            return "real captures not used: TWEETIE_FIXTURES is not set (make test sets it when ../shared/fixtures/twitter-api-v1.1 exists)"
        }
        return Comment(rawValue: "real captures not used: TWEETIE_FIXTURES=\(path) is not an existing folder")
    }

    static let listTimelineFile = "lists/statuses.json-owner_screen_name-icanzilb-slug-RxSwift"
    static let nextPageFile =
        "lists/statuses.json-max_id-1070684513213267967-owner_screen_name-icanzilb-since_id-1071396963340435457-slug-RxSwift"
    static let membersFile =
        "lists/members.json-count-100-include_entities-false-owner_screen_name-icanzilb-skip_status-1-slug-RxSwift"
    static let authors = ["ashfurrow", "fpillet", "icanzilb"]
    static func userTimelineFile(_ username: String) -> String {
        "statuses/user_timeline.json-contributor_details-false-count-100-include_rts-true-screen_name-\(username)"
    }
    static var statusFiles: [String] { [listTimelineFile, nextPageFile] + authors.map(userTimelineFile) }

    static func data(_ file: String) throws -> Data {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return try Data(contentsOf: directory.appendingPathComponent(file))
    }
}

import Testing
