/// Buffers a write transaction reuses for every record it adds: the encoded record and, per
/// index, the new and the old entry key. Only the writer's thread touches them.
@usableFromInline
final class WriteScratch {
    @usableFromInline let record = RecordByteBuffer(capacity: 512)
    @exclusivity(unchecked) @usableFromInline var newEntries: [KeyEncoder] = []
    @exclusivity(unchecked) @usableFromInline var oldEntries: [KeyEncoder] = []
    /// Per index, the non-unique entries of new records that a batch write holds back to write
    /// in key order (see ``PendingIndexEntries``); used while ``isBatching``.
    @exclusivity(unchecked) @usableFromInline var pending: [PendingIndexEntries] = []
    /// Whether an ``StoreWriter/add(contentsOf:update:)`` batch is collecting index entries.
    @exclusivity(unchecked) @usableFromInline var isBatching = false
    /// Whether some entries wait in ``pending``.
    @exclusivity(unchecked) @usableFromInline var hasPending = false
    /// How many entries one index holds back at most: at this many, a batch writes what it holds
    /// (in key order) and goes on, so that a batch of millions of records keeps its memory
    /// bounded (about 50 MB per index for 2^20 tweet-sized entries). Internal: tests lower it.
    @exclusivity(unchecked) @usableFromInline var pendingLimit = 1 << 20
    @usableFromInline init() {}

    /// Makes room for `count` indexes.
    @inlinable @inline(__always)
    func prepare(indexCount count: Int) {
        while newEntries.count < count {
            newEntries.append(KeyEncoder())
            oldEntries.append(KeyEncoder())
            pending.append(PendingIndexEntries())
        }
    }
}
