import Foundation
import TweetieDB
import TweetieSync

/// Runs one input through a `TwitterJSON` decoder and checks the outcome: either a batch whose
/// items survive the record JSON round trip and whose dropped elements have a reason, or
/// `TwitterAPIError.malformedJSON` naming the source. Anything else is a ``FuzzFinding``.
///
/// ```swift
/// let verdict = try JSONFuzzOracle(target: .statuses).run(Array("[]".utf8))
/// ```
package struct JSONFuzzOracle: Sendable {
    /// The decoder under test (`statuses`, `members` or `users`).
    package let target: FuzzTarget
    static let source = "fuzz-input"

    /// Creates an oracle for a JSON target.
    package init(target: FuzzTarget) {
        precondition(target != .ndjson, "JSONFuzzOracle decodes Twitter JSON; use ImportFuzzOracle for NDJSON")
        self.target = target
    }

    /// Decodes `bytes` and checks the result.
    package func run(_ bytes: [UInt8]) throws(FuzzFinding) -> FuzzVerdict {
        let data = Data(bytes)
        do {
            switch target {
            case .statuses:
                let batch = try TwitterJSON.decodeStatuses(data, source: Self.source)
                try check(batch.dropped)
                try roundTrip(batch.items)
            case .members:
                let batch = try TwitterJSON.decodeMembers(data, source: Self.source)
                try check(batch.dropped)
                try roundTrip(batch.items)
            case .users, .ndjson:
                let batch = try TwitterJSON.decodeUsers(data, source: Self.source)
                try check(batch.dropped)
                try roundTrip(batch.items)
            }
            return .accepted
        } catch let error as TwitterAPIError {
            guard case .malformedJSON(let source, let reason) = error else {
                throw FuzzFinding("decoding threw \(error), not malformedJSON")
            }
            guard source == Self.source, !reason.isEmpty else {
                throw FuzzFinding("malformedJSON names source '\(source)' with reason '\(reason)'")
            }
            return .rejected(shape: FuzzVerdict.shape(of: reason))
        } catch let finding as FuzzFinding {
            throw finding
        } catch {
            throw FuzzFinding("decoding threw \(type(of: error)), not TwitterAPIError.malformedJSON: \(error)")
        }
    }

    private func check(_ dropped: [DroppedElement]) throws(FuzzFinding) {
        for element in dropped where element.reason.isEmpty {
            throw FuzzFinding("dropped element \(element.index) has no reason")
        }
    }

    /// An accepted value must be storable: its record JSON decodes back to an equal value.
    private func roundTrip<T: Codable & Hashable>(_ items: [T]) throws(FuzzFinding) {
        for item in items {
            do {
                let json = try RecordJSON.encoder().encode(item)
                let back = try RecordJSON.decoder().decode(T.self, from: json)
                guard back == item else {
                    throw FuzzFinding("an accepted \(T.self) changes in the record JSON round trip: \(item) → \(back)")
                }
            } catch let finding as FuzzFinding {
                throw finding
            } catch {
                throw FuzzFinding("an accepted \(T.self) cannot be stored as record JSON: \(error) (\(item))")
            }
        }
    }
}
