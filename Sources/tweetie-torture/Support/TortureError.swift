/// A failure reported as one sentence on stderr with a non-zero exit status.
struct TortureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
