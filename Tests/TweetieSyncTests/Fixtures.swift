import Foundation

/// Where the captured Twitter responses are: the folder named by `TWEETIE_FIXTURES`.
enum Fixtures {
    static let variable = "TWEETIE_FIXTURES"
    static let disabledReason: Comment =
        "TWEETIE_FIXTURES is not set: point it at shared/fixtures/twitter-api-v1.1 to run the fixture tests"

    static var directory: URL? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    static var isAvailable: Bool { directory != nil }

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
