/// The expected contents of a database, built from acknowledged transactions: id → checksum.
struct AckModel: Sendable {
    private(set) var records: [Int64: UInt64] = [:]
    /// The last acknowledged change-log sequence.
    var lastSequence: UInt64 = 0
    /// Per id, the sequence of the acknowledged transaction that last wrote it.
    private(set) var lastWriter: [Int64: UInt64] = [:]

    /// Applies `items` (in order) as committed at `sequence`.
    mutating func apply(_ items: [WrittenItem], sequence: UInt64) {
        for item in items {
            records[item.id] = item.checksum
            lastWriter[item.id] = sequence
        }
        lastSequence = max(lastSequence, sequence)
    }

    /// The model with `items` applied, without changing this one.
    func applying(_ items: [WrittenItem]) -> [Int64: UInt64] {
        var copy = records
        for item in items { copy[item.id] = item.checksum }
        return copy
    }

    mutating func reset() { self = AckModel() }
}
