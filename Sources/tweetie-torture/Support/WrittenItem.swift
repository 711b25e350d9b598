/// What one write transaction does to one tweet: its new checksum, or `nil` for a deletion.
struct WrittenItem: Hashable, Sendable {
    var id: Int64
    var checksum: UInt64?
}
