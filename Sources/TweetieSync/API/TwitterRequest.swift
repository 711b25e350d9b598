/// One Twitter API v1.1 GET request: endpoint path and query parameters.
///
/// Shared by ``TwitterHTTPClient`` (to build URLs) and ``APICacheSource`` (to name files),
/// so both use exactly the parameter sets of the book's client.
struct TwitterRequest: Sendable, Hashable {
    let path: String
    let parameters: [String: String]

    static func listTimeline(_ list: ListIdentifier, cursor: TimelineCursor) -> TwitterRequest {
        var parameters = ["owner_screen_name": list.username, "slug": list.slug]
        cursor.addParameters(to: &parameters)
        return TwitterRequest(path: "lists/statuses.json", parameters: parameters)
    }

    static func userTimeline(_ username: String, cursor: TimelineCursor) -> TwitterRequest {
        var parameters = [
            "screen_name": username, "count": "100", "include_rts": "true", "contributor_details": "false",
        ]
        cursor.addParameters(to: &parameters)
        return TwitterRequest(path: "statuses/user_timeline.json", parameters: parameters)
    }

    static func listMembers(_ list: ListIdentifier) -> TwitterRequest {
        TwitterRequest(
            path: "lists/members.json",
            parameters: [
                "owner_screen_name": list.username, "slug": list.slug, "count": "100",
                "skip_status": "1", "include_entities": "false",
            ])
    }

    /// The parameters sorted by name.
    var sortedParameters: [(name: String, value: String)] {
        parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// The book's APICache file name: path, then each `name-value`, sorted by name, joined by `-`.
    var cacheName: String {
        ([path] + sortedParameters.flatMap { [$0.name, $0.value] }).joined(separator: "-")
    }
}

extension TimelineCursor {
    fileprivate func addParameters(to parameters: inout [String: String]) {
        if let maxId { parameters["max_id"] = String(maxId) }
        if let sinceId { parameters["since_id"] = String(sinceId) }
    }
}
