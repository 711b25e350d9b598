import Foundation
import TweetieDB

/// Decodes Twitter API v1.1 response bodies into ``Tweet`` and ``User`` batches.
///
/// Elements that do not decode are dropped and reported in ``DecodedBatch/dropped``; a body
/// that is not JSON, or whose top level is not what the endpoint returns, throws
/// ``TwitterAPIError/malformedJSON(source:reason:)`` naming `source`.
///
/// ```swift
/// let batch = try TwitterJSON.decodeStatuses(data, source: "lists/statuses.json")
/// let members = try TwitterJSON.decodeMembers(data, source: "lists/members.json")
/// ```
public enum TwitterJSON {
    /// Decodes a JSON array of statuses (list and user timelines).
    ///
    /// ```swift
    /// let batch = try TwitterJSON.decodeStatuses(Data("[]".utf8), source: "test")
    /// // batch.items == [], batch.dropped == []
    /// ```
    public static func decodeStatuses(_ data: Data, source: String) throws -> DecodedBatch<Tweet> {
        let attempts = try decodeTopLevel(
            [DecodingAttempt<TweetDTO>].self, from: data, source: source,
            expected: "a JSON array of statuses")
        return DecodingAttempt.batch(attempts) { $0.tweet }
    }

    /// Decodes a `{"users": [...]}` object (list members).
    ///
    /// ```swift
    /// let batch = try TwitterJSON.decodeMembers(Data(#"{"users":[]}"#.utf8), source: "test")
    /// ```
    public static func decodeMembers(_ data: Data, source: String) throws -> DecodedBatch<User> {
        let envelope = try decodeTopLevel(
            UsersEnvelopeDTO.self, from: data, source: source,
            expected: "a JSON object with a \"users\" array")
        return DecodingAttempt.batch(envelope.users) { $0.user }
    }

    /// Decodes a JSON array of user objects.
    ///
    /// ```swift
    /// let batch = try TwitterJSON.decodeUsers(Data("[]".utf8), source: "users/lookup.json")
    /// ```
    public static func decodeUsers(_ data: Data, source: String) throws -> DecodedBatch<User> {
        let attempts = try decodeTopLevel(
            [DecodingAttempt<UserDTO>].self, from: data, source: source,
            expected: "a JSON array of users")
        return DecodingAttempt.batch(attempts) { $0.user }
    }

    /// Where and why the body is not JSON, in JSONSerialization's words ("Unexpected end of file
    /// during JSON parse.", "Invalid value around character 3."); JSONDecoder only says
    /// "The given data was not valid JSON." Runs only for a body already known to be invalid.
    private static func syntaxErrorDetail(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let nsError = error as NSError
            return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    private static func decodeTopLevel<T: Decodable>(
        _ type: T.Type, from data: Data, source: String, expected: String
    ) throws -> T {
        // JSONDecoder traps on some inputs nested deeper than its limit: refuse them first.
        guard !JSONNesting.exceedsLimit(data) else {
            throw TwitterAPIError.malformedJSON(
                source: source, reason: "not valid JSON (arrays and objects nest deeper than \(JSONNesting.maximumDepth) levels)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty:
                let detail = syntaxErrorDetail(data)
                    ?? (context.underlyingError.map { String(describing: $0) }) ?? context.debugDescription
                throw TwitterAPIError.malformedJSON(source: source, reason: "not valid JSON (\(detail))")
            default:
                throw TwitterAPIError.malformedJSON(
                    source: source,
                    reason: "expected \(expected) at the top level; \(DecodingAttempt<T>.describe(error))")
            }
        }
    }
}
