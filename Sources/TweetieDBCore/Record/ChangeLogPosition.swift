/// A point in one store's history: a change-log sequence and the commit that wrote it.
///
/// Sequence numbers alone do not identify a history: a database restored from an older backup
/// and written again reaches the same sequences with other commits. Every commit therefore logs
/// a random 64-bit commit id beside its sequence, and a position names both; ``StoreReader/contains(_:)``
/// says whether a position is a point of the store's own history. Renderers that resume from a
/// position (feeds, `Last-Event-ID`) resume only from a position the store contains, and start
/// over otherwise.
///
/// Its text form is `SEQUENCE.COMMITID`, the commit id as 16 lowercase hexadecimal digits
/// (`14.5f3a9c0e12ab34cd`), or `0` for the start of every history (nothing logged yet). A bare
/// `SEQUENCE` parses too, as a position without a commit id: no store contains it (other than
/// `0`), so resuming from it always starts over.
///
/// ```swift
/// let position = try store.read { try $0.changeLogPosition() }
/// print(position)                              // 14.5f3a9c0e12ab34cd
/// let resumable = try store.read { try $0.contains(position) }
/// ```
public struct ChangeLogPosition: Hashable, Sendable, LosslessStringConvertible {
    /// The change-log sequence (0: nothing logged).
    public var sequence: UInt64
    /// The commit id of the entry at ``sequence``; `nil` at sequence 0, for an entry logged before
    /// commit ids existed, and for a position parsed from a bare sequence number.
    public var commitID: UInt64?

    /// The start of every history: sequence 0.
    public static let origin = ChangeLogPosition(sequence: 0, commitID: nil)

    /// A position.
    ///
    /// ```swift
    /// let position = ChangeLogPosition(sequence: 14, commitID: 0x5f3a9c0e12ab34cd)
    /// ```
    public init(sequence: UInt64, commitID: UInt64?) {
        self.sequence = sequence
        self.commitID = sequence == 0 ? nil : commitID
    }

    /// Parses `SEQUENCE.COMMITID` (16 lowercase hexadecimal digits) or a bare decimal `SEQUENCE`;
    /// `nil` for anything else (signs, spaces, leading zeros, other digits).
    ///
    /// ```swift
    /// let position = ChangeLogPosition("14.5f3a9c0e12ab34cd")
    /// ```
    public init?(_ description: String) {
        let parts = description.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let sequence = UInt64(first), String(sequence) == first else { return nil }
        guard parts.count == 2 else {
            self.init(sequence: sequence, commitID: nil)
            return
        }
        let hex = parts[1]
        guard sequence > 0, hex.utf8.count == 16,
              hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let commitID = UInt64(hex, radix: 16) else { return nil }
        self.init(sequence: sequence, commitID: commitID)
    }

    /// `SEQUENCE.COMMITID`, or `SEQUENCE` without a commit id.
    public var description: String {
        guard let commitID else { return String(sequence) }
        let hex = String(commitID, radix: 16)
        return "\(sequence)." + String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }
}

extension ChangeLogPosition: Codable {
    /// Decodes the text form (a JSON string).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let position = ChangeLogPosition(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a change-log position (SEQUENCE.COMMITID, the commit id as 16 lowercase hexadecimal digits)")
        }
        self = position
    }

    /// Encodes the text form (a JSON string).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
