import Foundation

/// Decodes one array element without throwing, so a bad element does not fail its array.
struct DecodingAttempt<Wrapped: Decodable>: Decodable {
    enum Outcome {
        case decoded(Wrapped)
        case failed(id: Int64?, reason: String)
    }

    let outcome: Outcome

    private enum IDKey: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        do {
            outcome = .decoded(try Wrapped(from: decoder))
        } catch {
            let id = try? decoder.container(keyedBy: IDKey.self).decode(Int64.self, forKey: .id)
            outcome = .failed(id: id, reason: Self.describe(error, relativeTo: decoder.codingPath.count))
        }
    }

    /// Collects a decoded array of attempts into a batch.
    static func batch<T>(_ attempts: [DecodingAttempt<Wrapped>], _ transform: (Wrapped) -> T) -> DecodedBatch<T> {
        var items: [T] = []
        items.reserveCapacity(attempts.count)
        var dropped: [DroppedElement] = []
        for (index, attempt) in attempts.enumerated() {
            switch attempt.outcome {
            case .decoded(let value): items.append(transform(value))
            case .failed(let id, let reason): dropped.append(DroppedElement(index: index, id: id, reason: reason))
            }
        }
        return DecodedBatch(items: items, dropped: dropped)
    }

    /// A short human-readable reason for a decoding failure; coding paths are shown without
    /// their first `prefix` keys (the path of the element itself).
    static func describe(_ error: any Error, relativeTo prefix: Int = 0) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ codingPath: [any CodingKey]) -> String {
            let keys = codingPath.dropFirst(prefix).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? (prefix > 0 ? "the element" : "the top level") : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.count <= prefix ? "" : " in " + path(context.codingPath)
            return "missing key '\(key.stringValue)'\(parent)"
        case .valueNotFound(let type, let context):
            return "null where \(type) was expected at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return String(describing: error)
        }
    }
}
