/// The records one walk of a query plan copied out of its read transaction, to decode after the
/// transaction ended: an observation's start and a window's read both copy this way, so that
/// their read transactions stay short (an open one keeps LMDB from reusing pages freed by later
/// commits).
///
/// Per record it keeps its stored bytes (in chunks growing to a mebibyte, so that no buffer is
/// reallocated, and copied again, as it grows, and each chunk can be freed once its records are
/// decoded), its primary key and, when the walk is in the query's order, the walked key, which
/// is the record's sort key. It is only read, from any thread, except that each chunk is freed by
/// the one thread that decodes it.
///
/// ```swift
/// let copied = try store.read { try CopiedRecords.walk(scan, in: $0.transaction, descriptor: descriptor, path: path, limit: nil) }
/// for chunk in 0..<copied.chunkCount {
///     for index in copied.records(inChunk: chunk) { decode(copied.bytes(of: index, inChunk: chunk)) }
/// }
/// ```
@usableFromInline
final class CopiedRecords: @unchecked Sendable {
    /// Each chunk's end, as a record index (ascending, the last one ``count``).
    @usableFromInline let chunkEnds: [Int]
    /// Each record's end in its chunk, in bytes.
    @usableFromInline let ends: [Int]
    @usableFromInline let primaryKeys: [PrimaryKeyBytes]
    /// Each record's walked key, inverted for a descending walk: kept when the walk is in the
    /// query's order (``ScanPlan/walkIsSorted``), empty otherwise.
    @usableFromInline let walkedKeys: [EncodedKey]
    /// Whether the walk went to its end rather than stopping at its limit.
    @usableFromInline let exhausted: Bool
    /// The chunks; a freed chunk's slot holds an empty buffer.
    @usableFromInline let slots: UnsafeMutablePointer<UnsafeMutableRawBufferPointer>
    @usableFromInline let chunkCount: Int

    @usableFromInline
    init(chunks: [UnsafeMutableRawBufferPointer], chunkEnds: [Int], ends: [Int], primaryKeys: [PrimaryKeyBytes],
         walkedKeys: [EncodedKey], exhausted: Bool) {
        chunkCount = chunks.count
        slots = .allocate(capacity: Swift.max(chunks.count, 1))
        slots.initialize(from: chunks, count: chunks.count)
        self.chunkEnds = chunkEnds
        self.ends = ends
        self.primaryKeys = primaryKeys
        self.walkedKeys = walkedKeys
        self.exhausted = exhausted
    }

    deinit {
        for index in 0..<chunkCount where slots[index].baseAddress != nil { slots[index].deallocate() }
        slots.deallocate()
    }

    /// The number of records copied.
    @inlinable
    var count: Int { ends.count }

    /// Walks `scan` in `transaction`, copying each record, until the walk ends or `limit` records
    /// are copied.
    @inlinable
    static func walk<T: ReadableTransaction>(_ scan: ScanPlan, in transaction: T, descriptor: CollectionDescriptor, path: String,
                                             limit: Int?) throws -> CopiedRecords {
        var chunks: [UnsafeMutableRawBufferPointer] = []
        var used = 0
        var chunkEnds: [Int] = []
        var ends: [Int] = []
        var primaryKeys: [PrimaryKeyBytes] = []
        var walkedKeys: [EncodedKey] = []
        var exhausted = true
        var sealed = false
        defer { if !sealed { for chunk in chunks { chunk.deallocate() } } }
        let lookup = try scan.lookupCursor(in: transaction)
        defer { lookup?.close() }
        try transaction.forEach(in: scan.database, range: scan.range, reverse: scan.reverse) { walked, value in
            let (bytes, primaryKey) = try scan.storedRecord(key: walked, value: value, lookup: lookup, descriptor: descriptor, path: path)
            if chunks.isEmpty || used + bytes.count > chunks[chunks.count - 1].count {
                if !chunks.isEmpty { chunkEnds.append(ends.count) }
                // 64 KiB first, doubling up to a mebibyte: a window's few records fit the first.
                chunks.append(.allocate(byteCount: Swift.max(1 << Swift.min(20, 16 + chunks.count), bytes.count), alignment: 16))
                used = 0
            }
            if let source = bytes.baseAddress, !bytes.isEmpty {
                chunks[chunks.count - 1].baseAddress!.advanced(by: used).copyMemory(from: source, byteCount: bytes.count)
            }
            used += bytes.count
            ends.append(used)
            primaryKeys.append(PrimaryKeyBytes(primaryKey))
            if scan.walkIsSorted { walkedKeys.append(EncodedKey(copying: walked, inverted: scan.reverse)) }
            if let limit, ends.count >= limit {
                exhausted = false
                return false
            }
            return true
        }
        if chunks.count > chunkEnds.count { chunkEnds.append(ends.count) }
        sealed = true
        return CopiedRecords(chunks: chunks, chunkEnds: chunkEnds, ends: ends, primaryKeys: primaryKeys, walkedKeys: walkedKeys,
                             exhausted: exhausted)
    }

    /// The indices of the records in chunk `chunk`.
    @inlinable
    func records(inChunk chunk: Int) -> Range<Int> {
        (chunk == 0 ? 0 : chunkEnds[chunk - 1])..<chunkEnds[chunk]
    }

    /// The chunk whose records end at record index `end` (a chunk's ``records(inChunk:)`` upper bound).
    @inlinable
    func chunk(endingAt end: Int) -> Int {
        var low = 0, high = chunkEnds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if chunkEnds[middle] < end { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The stored bytes of record `index`, which is in chunk `chunk` (not yet freed).
    @inlinable
    func bytes(of index: Int, inChunk chunk: Int) -> UnsafeRawBufferPointer {
        let start = index == records(inChunk: chunk).lowerBound ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(slots[chunk].baseAddress!) + start, count: ends[index] - start)
    }

    /// Frees chunk `chunk`, whose records are decoded (by the thread that decoded them).
    @inlinable
    func free(chunk: Int) {
        slots[chunk].deallocate()
        slots[chunk] = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }
}
