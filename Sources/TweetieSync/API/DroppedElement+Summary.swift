extension DroppedElement {
    /// How many of the first dropped elements a summary names.
    static let summaryExamples = 3
    /// The most characters of one dropped element's description a summary keeps.
    static let summaryReasonLength = 160

    /// One bounded line for a log: how many of `total` elements were dropped, the first few with
    /// their reasons (each cut to ``summaryReasonLength`` characters), and how many more — never a
    /// line that grows with the response.
    ///
    /// ```swift
    /// DroppedElement.summary(of: batch.dropped, total: 10_000)
    /// // "10000 of 10000 elements did not decode: element 0: expected an object…; element 1: …; element 2: …; and 9997 more"
    /// ```
    static func summary(of dropped: [DroppedElement], total: Int) -> String {
        let named = dropped.prefix(summaryExamples).map { element -> String in
            let text = element.description
            return text.count > summaryReasonLength ? String(text.prefix(summaryReasonLength)) + "…" : text
        }
        let more = dropped.count > summaryExamples ? "; and \(dropped.count - summaryExamples) more" : ""
        return "\(dropped.count) of \(total) elements did not decode: " + named.joined(separator: "; ") + more
    }
}
