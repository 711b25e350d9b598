/// What the code under test did with one input, when it behaved as specified.
///
/// ```swift
/// if case .rejected(let shape) = verdict { print(shape) }
/// ```
package enum FuzzVerdict: Hashable, Sendable {
    /// The input was accepted.
    case accepted
    /// The input was rejected with the expected error type; `shape` is the error's reason with
    /// digits masked, to group similar rejections.
    case rejected(shape: String)

    /// `accepted` or `rejected`, the prefix of corpus file names.
    package var label: String {
        if case .accepted = self { return "accepted" }
        return "rejected"
    }

    static func shape(of reason: String) -> String {
        var out = ""
        var lastWasDigit = false
        for character in reason {
            if character.isNumber {
                if !lastWasDigit { out.append("#") }
                lastWasDigit = true
            } else {
                out.append(character)
                lastWasDigit = false
            }
            if out.count >= 90 { break }
        }
        return out
    }
}
