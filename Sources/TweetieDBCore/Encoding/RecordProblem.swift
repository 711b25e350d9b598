/// A low-level decoding failure found by ``RecordReader``, before the coding path is known.
/// Containers turn it into a `DecodingError` carrying their coding path.
struct RecordProblem: Error, @unchecked Sendable {
    enum Kind {
        case corrupted
        case typeMismatch
        case valueNotFound
        /// Turned into `DecodingError.keyNotFound` by the keyed container, which has the key.
        case keyNotFound
    }

    var kind: Kind
    /// The Swift type that was being decoded (for `typeMismatch` / `valueNotFound`).
    var type: Any.Type
    var message: String

    static func corrupted(_ message: String) -> RecordProblem {
        RecordProblem(kind: .corrupted, type: Any.self, message: message)
    }

    func decodingError(path: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(codingPath: path, debugDescription: message)
        switch kind {
        case .corrupted, .keyNotFound: return .dataCorrupted(context)
        case .typeMismatch: return .typeMismatch(type, context)
        case .valueNotFound: return .valueNotFound(type, context)
        }
    }
}
