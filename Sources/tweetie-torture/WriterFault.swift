import ArgumentParser

/// Deliberate misbehaviour of a writer, for testing the checker.
enum WriterFault: String, ExpressibleByArgument, CaseIterable, Sendable {
    case none
    case earlyAck = "early-ack"
    case splitCommit = "split-commit"
}
