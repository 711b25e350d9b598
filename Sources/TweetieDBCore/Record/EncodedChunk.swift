import Foundation

/// One chunk of a batch, encoded: per record, its primary key, its record bytes and its index
/// entries, as byte runs back to back in one buffer.
///
/// ```swift
/// // Internal: filled by the batch encoder thread, read by the writer.
/// let bytes = chunk.field(1, ofRecord: 0)   // the first record's encoded bytes
/// ```
@usableFromInline
final class EncodedChunk: @unchecked Sendable {
    /// Byte runs per record: the primary key, the record, then one per index.
    @usableFromInline let fieldsPerRecord: Int
    /// The runs, back to back.
    @usableFromInline let buffer = RecordByteBuffer(capacity: BatchPipeline.chunkSize * 512)
    /// The end of each run in ``buffer``.
    @exclusivity(unchecked) @usableFromInline var ends: [Int] = []
    /// The batch position of the chunk's first record.
    @exclusivity(unchecked) @usableFromInline var first = 0
    /// One past the batch position of the chunk's last record.
    @exclusivity(unchecked) @usableFromInline var limit = 0
    /// Records completely encoded.
    @exclusivity(unchecked) @usableFromInline var count = 0
    /// The error of the record after the last one encoded, if encoding it failed.
    @exclusivity(unchecked) @usableFromInline var failure: (any Error)?
    /// The worker's encoding buffer for one record.
    @usableFromInline let recordScratch = RecordByteBuffer(capacity: 512)
    /// The worker's encoder for one index entry.
    @exclusivity(unchecked) @usableFromInline var entryScratch = KeyEncoder()
    /// The worker's encoder for one primary key (an import's; a batch keeps its own).
    @exclusivity(unchecked) @usableFromInline var keyScratch = KeyEncoder()

    init(fieldsPerRecord: Int) {
        self.fieldsPerRecord = fieldsPerRecord
        ends.reserveCapacity(BatchPipeline.chunkSize * fieldsPerRecord)
    }

    /// Empties the chunk for the records `first..<limit`.
    func reset(first: Int, limit: Int) {
        self.first = first
        self.limit = limit
        count = 0
        failure = nil
        buffer.count = 0
        ends.removeAll(keepingCapacity: true)
    }

    /// Appends one byte run.
    @inlinable
    func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
        ends.append(buffer.count)
    }

    /// The number of byte runs appended since the last reset.
    @inlinable
    var runCount: Int { ends.count }

    /// Byte run `index` (0-based, in the order appended), for records whose number of runs varies
    /// (an import's, whose lines may belong to collections with different numbers of indexes).
    @inlinable
    func run(_ index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: buffer.base + start, count: ends[index] - start)
    }

    /// Run `field` of record `record` (0-based within the chunk).
    @inlinable
    func field(_ field: Int, ofRecord record: Int) -> UnsafeRawBufferPointer {
        let run = record * fieldsPerRecord + field
        let start = run == 0 ? 0 : ends[run - 1]
        return UnsafeRawBufferPointer(start: buffer.base + start, count: ends[run] - start)
    }
}
