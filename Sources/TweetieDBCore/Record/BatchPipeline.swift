import Foundation

// BatchPipeline, with SendableRecords: the few-line wrapper that hands the batch's buffer to
// the encoder thread.

/// Encodes a large batch's records on a second thread, a few chunks ahead of the write
/// transaction's thread, which puts them (and encodes too rather than wait).
///
/// Encoding a record and computing its index entries (the user's `encode(to:)` and index
/// closures) take about half of a bulk upsert's CPU time; LMDB's puts and the commit, which must
/// stay on the transaction's thread, take the rest. With the encoding on another core, the two
/// overlap.
/// Records are `Sendable` and index closures `@Sendable`, so they may run on any thread; the
/// batch's array is not mutated while `add(contentsOf:)` reads it.
///
/// Hand-over is bounded: ``slotCount`` chunks of ``chunkSize`` records, reused round-robin, so
/// memory stays at a few hundred kilobytes whatever the batch's size. The worker claims chunks
/// from the low end of that window; when the writer would wait, it encodes the chunk it needs if
/// nobody has claimed it, or else the highest unclaimed one, so the work splits between the two
/// cores by their speed. Encoding stops at the first record that fails; the writer throws when it
/// reaches it, having written the records before it, exactly as when encoding on its own thread.
/// ``stop()`` (always called by the writer, also when it throws) cancels the worker and waits for
/// it to leave, so the batch's memory is never read after `add(contentsOf:)` returns.
///
/// The writer blocks on a condition variable while it waits for a chunk: a blocking wait, not an
/// `await`, so the write transaction stays on its thread.
///
/// ```swift
/// // Internal: add(contentsOf:) uses it for batches of at least BatchPipeline.minimumBatch records.
/// let pipeline = BatchPipeline(recordCount: records.count, fieldsPerRecord: 2 + indexCount) { chunk in encode(chunk) }
/// pipeline.start()
/// defer { pipeline.stop() }
/// for number in 0..<pipeline.chunkCount { let chunk = pipeline.waitForChunk(number); …; pipeline.release() }
/// ```
@usableFromInline
final class BatchPipeline: @unchecked Sendable {
    /// Records per chunk.
    @usableFromInline static let chunkSize = 256
    /// Chunks encoded ahead of the writer, at most.
    static let slotCount = 4
    /// The smallest batch worth a thread (starting one costs tens of microseconds; encoding
    /// 1,024 tweet-sized records takes about a third of a millisecond).
    @usableFromInline static let minimumBatch = 1024

    /// The number of chunks of the batch.
    @usableFromInline let chunkCount: Int
    let recordCount: Int
    let slots: [EncodedChunk]
    let lock = ConditionLock()
    /// Per slot, the chunk claimed into it, or -1 (under `lock`). Chunk `c` goes into slot
    /// `c % slots.count`, once the chunk before it in that slot has been released.
    var slotChunk: [Int]
    /// Per slot, whether its chunk is encoded (under `lock`).
    var slotReady: [Bool]
    /// Chunks the writer has released: the window of claimable chunks is
    /// `consumed ..< consumed + slots.count` (under `lock`).
    var consumed = 0
    /// One past the first chunk that ended at a record that failed to encode: no chunk from there
    /// on is claimed (under `lock`).
    var failedChunk: Int
    /// Set by ``stop()``: the worker leaves before its next chunk (under `lock`).
    var cancelled = false
    /// Set when the worker has left (under `lock`).
    var workerDone = false
    /// Fills a chunk (its `first` and `limit` set); `false` when a record failed.
    let encode: @Sendable (EncodedChunk) -> Bool

    /// A pipeline for `recordCount` records, each stored as `fieldsPerRecord` byte runs by
    /// `encode`, which returns `false` when a record failed.
    @usableFromInline
    init(recordCount: Int, fieldsPerRecord: Int, encode: @escaping @Sendable (EncodedChunk) -> Bool) {
        self.recordCount = recordCount
        self.encode = encode
        chunkCount = (recordCount + Self.chunkSize - 1) / Self.chunkSize
        failedChunk = chunkCount
        slots = (0..<min(Self.slotCount, chunkCount)).map { _ in EncodedChunk(fieldsPerRecord: fieldsPerRecord) }
        slotChunk = Array(repeating: -1, count: slots.count)
        slotReady = Array(repeating: false, count: slots.count)
    }

    /// Starts the worker thread. It claims the lowest unclaimed chunk of the window and fills it
    /// with `encode`.
    @usableFromInline
    func start() {
        let thread = Thread { [self] in
            // The encoding belongs to the batch's write transaction: a write started from an
            // `encode(to:)` here is refused (`nestedWrite`), as on the transaction's own thread,
            // instead of waiting forever for the transaction that waits for this thread.
            ThreadTransactions.didBegin(write: true)
            defer { ThreadTransactions.didEnd(write: true) }
            lock.lock()
            while !cancelled {
                if let chunk = unclaimed(lowest: true) {
                    fill(chunk)
                } else if consumed + slots.count >= failedChunk {
                    break   // every chunk left is claimed
                } else {
                    lock.wait()   // the window is full: wait for the writer
                }
            }
            workerDone = true
            lock.broadcast()
            lock.unlock()
        }
        thread.name = "TweetieDB batch encoder"
        thread.start()
    }

    /// The lowest (or highest) chunk of the window nobody has claimed (under `lock`).
    private func unclaimed(lowest: Bool) -> Int? {
        let window = consumed..<min(consumed + slots.count, failedChunk)
        if lowest {
            return window.first { slotChunk[$0 % slots.count] != $0 }
        }
        return window.last { slotChunk[$0 % slots.count] != $0 }
    }

    /// Claims chunk `number` and encodes it into its slot, outside the lock (called and
    /// returning with the lock held).
    private func fill(_ number: Int) {
        let slot = number % slots.count
        slotChunk[slot] = number
        slotReady[slot] = false
        let chunk = slots[slot]
        let first = number * Self.chunkSize
        lock.unlock()
        chunk.reset(first: first, limit: min(first + Self.chunkSize, recordCount))
        let complete = encode(chunk)
        lock.lock()
        slotReady[slot] = true
        if !complete { failedChunk = min(failedChunk, number + 1) }
        lock.broadcast()
    }

    /// Returns chunk `number` encoded (the writer's side, in order). Rather than wait for it, the
    /// writer encodes it if nobody has claimed it, or else the highest chunk of the window nobody
    /// has claimed (the worker takes them from the lowest): the two threads share the encoding by
    /// their speed.
    @usableFromInline
    func waitForChunk(_ number: Int) -> EncodedChunk {
        lock.lock()
        defer { lock.unlock() }
        let slot = number % slots.count
        while !(slotChunk[slot] == number && slotReady[slot]) {
            if slotChunk[slot] != number {
                fill(number)
            } else if let ahead = unclaimed(lowest: false) {
                fill(ahead)
            } else {
                lock.wait()
            }
        }
        return slots[slot]
    }

    /// Hands the oldest chunk's slot back (the writer's side).
    @usableFromInline
    func release() {
        lock.withLock {
            consumed += 1
            lock.broadcast()
        }
    }

    /// Cancels the worker and waits until it has left: after this, nothing reads the batch.
    @usableFromInline
    func stop() {
        lock.withLock {
            cancelled = true
            lock.broadcast()
            while !workerDone { lock.wait() }
        }
    }
}

/// A batch's records, for its encoder thread: `Record`s are `Sendable`, and the buffer is not
/// mutated while `add(contentsOf:)` reads it.
@usableFromInline
struct SendableRecords<R: Record>: @unchecked Sendable {
    @usableFromInline let records: UnsafeBufferPointer<R>

    @inlinable
    init(_ records: UnsafeBufferPointer<R>) { self.records = records }
}
