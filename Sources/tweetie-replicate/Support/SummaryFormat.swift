import ArgumentParser

/// How `once` and `status` print: a line (or lines) of text, or one JSON object.
enum SummaryFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
