import Foundation

// FetchPipeline, with SendablePointer: the few-line wrapper that hands the fetch's buffers to
// the decoder thread.

/// Decodes a large fetch's records on a second thread (the process's one fetch decoder) while
/// the transaction's thread walks the collection or index and finds each record's stored bytes;
/// once the walk ends, both threads decode what is left. An observation's start uses it too, for
/// records it copied out of its read transaction (``init(rangeEnds:)``).
///
/// Decoding (the record's `init(from:)`, its strings' allocation and UTF-8 checks, the first
/// touch of each record's bytes in the map) is most of a decoded scan's time; the B-tree walk and
/// the lookups of an index walk are the rest. Only the walk uses LMDB. The decoder reads the
/// stored bytes in place, through the views the walk found: for a read-only transaction they are
/// pages of the map, valid until the transaction ends (lmdb.h: "valid only until a subsequent
/// update operation, or the end of the transaction"), and a fetch neither updates nor ends its
/// transaction before ``finish(walked:)`` has waited for the decoder.
///
/// Work is handed over in chunks of ``chunkSize`` records in walk order: the walk publishes each
/// chunk as it fills, the decoder thread claims the lowest unclaimed one, and the walking thread
/// claims chunks too once its walk is over, so the two split the decoding by their speed. Each
/// thread decodes with its own ``SharedStringTable`` (a table is not thread-safe). The first
/// record that fails to decode stops the claiming; ``failure`` is the failure with the lowest
/// index, which is the one a sequential fetch would have thrown.
///
/// ```swift
/// // Internal: fetch(_:) uses it for whole-collection fetches of at least minimumCount records.
/// let pipeline = FetchPipeline(capacity: count)
/// pipeline.start { range, strings in decode(range, strings) }
/// // … walk: pipeline.sources[n] = bytes; pipeline.keys[n] = key; every chunkSize: pipeline.publish(n)
/// pipeline.finish(walked: n)
/// ```
@usableFromInline
final class FetchPipeline: @unchecked Sendable {
    /// Records per chunk handed over.
    @usableFromInline static let chunkSize = 512
    /// The smallest fetch worth a thread: starting one costs tens of microseconds, decoding
    /// 8,192 tweet-sized records several milliseconds.
    @usableFromInline static let minimumCount = 8192

    /// Whether decoding aside pays in this process (worked out once): see
    /// ``isWorthwhile(processors:environment:)``.
    @usableFromInline static let isWorthwhile: Bool =
        isWorthwhile(processors: ProcessInfo.processInfo.activeProcessorCount, environment: ProcessInfo.processInfo.environment)

    /// Whether a second thread can decode beside the walk: there must be a second processor, and
    /// glibc must not be limited to one malloc arena (`MALLOC_ARENA_MAX=1`, or
    /// `glibc.malloc.arena_max=1` in `GLIBC_TUNABLES`, which some container setups use to save
    /// memory): decoding allocates every string, and two threads allocating from one arena wait
    /// on its lock. Measured here with one arena, a 100k-record scan took twice as long on two
    /// threads (1.19M records/s) as on one (1.47M records/s).
    static func isWorthwhile(processors: Int, environment: [String: String]) -> Bool {
        guard processors > 1 else { return false }
        // Either setting may be the one glibc applies (which wins when both are set is not
        // documented), so a limit of one in either is taken as meant.
        if environment["MALLOC_ARENA_MAX"]?.trimmingCharacters(in: .whitespaces) == "1" { return false }
        // GLIBC_TUNABLES: name=value pairs separated by colons.
        for tunable in (environment["GLIBC_TUNABLES"] ?? "").split(separator: ":") where tunable == "glibc.malloc.arena_max=1" {
            return false
        }
        return true
    }

    /// A record that failed to decode: its position in the walk and the error to throw.
    @usableFromInline
    struct Failure: Sendable {
        @usableFromInline let index: Int
        @usableFromInline let error: any Error

        @inlinable
        init(index: Int, error: any Error) {
            self.index = index
            self.error = error
        }
    }

    /// Decodes the records at `range` into their places, with the calling thread's table;
    /// returns the first record that failed (the records before it in `range` are decoded).
    @usableFromInline
    typealias Decode = @Sendable (_ range: Range<Int>, _ strings: SharedStringTable) -> Failure?

    /// Each found record's stored bytes, in walk order (written by the walk before it
    /// publishes them).
    @usableFromInline let sources: UnsafeMutablePointer<UnsafeRawBufferPointer>
    /// Each found record's key bytes as errors name it (the primary key).
    @usableFromInline let keys: UnsafeMutablePointer<UnsafeRawBufferPointer>

    private let lock = ConditionLock()
    private var decodeRecords: Decode?
    /// Records the walk has published (under `lock`).
    private var published = 0
    /// Records claimed for decoding, from the start (under `lock`).
    private var claimed = 0
    /// Set when the walk is over: `published` is final (under `lock`).
    private var walkEnded = false
    /// Whether the fetch decoder took this fetch's job (set by ``start(_:)``).
    private var hasHelper = false
    /// The failure with the lowest index so far (under `lock`).
    private var lowestFailure: Failure?
    /// The ranges of records decoded, whole or up to a failure (under `lock`).
    private var decoded: [Range<Int>] = []

    /// Where the ranges handed over end, when they are not every ``chunkSize`` records (ascending,
    /// the last one the number of records); `nil` for a walk.
    private let rangeEnds: [Int]?
    /// The first of ``rangeEnds`` not yet claimed (under `lock`).
    private var nextRangeEnd = 0

    /// A pipeline for a walk of at most `capacity` records.
    @usableFromInline
    init(capacity: Int) {
        sources = .allocate(capacity: capacity)
        keys = .allocate(capacity: capacity)
        rangeEnds = nil
    }

    /// A pipeline for records already read, which the caller decodes from its own buffers: the
    /// ranges handed over end at `rangeEnds` (ascending), so a caller that copied its records
    /// into chunks can free each chunk once its range is decoded. Call ``start(_:helped:)``, then
    /// ``finish(walked:)`` with the last end.
    @usableFromInline
    init(rangeEnds: [Int]) {
        sources = .allocate(capacity: 0)
        keys = .allocate(capacity: 0)
        self.rangeEnds = rangeEnds
    }

    deinit {
        sources.deallocate()
        keys.deallocate()
    }

    /// Hands the decoding of published chunks to the process's fetch decoder
    /// (``HelperThread/fetchDecoder``), which decodes them with `decode` until the walk is over
    /// and every chunk is claimed, or a record has failed. When another fetch is using the
    /// decoder, this one decodes everything on its own thread in ``finish(walked:)``.
    ///
    /// The decoder belongs to the calling thread's transaction: a transaction begun from an
    /// `init(from:)` on it is treated as nested in that one (a write is refused inside a write, and
    /// map growth does not wait for the reader that waits for this thread).
    ///
    /// With `helped` false the decoder is not asked: ``finish(walked:)`` decodes everything on the
    /// calling thread (for a job too small to be worth a thread).
    @usableFromInline
    func start(_ decode: @escaping Decode, helped: Bool = true) {
        decodeRecords = decode
        guard helped else { return }
        let inWrite = ThreadTransactions.inWrite
        hasHelper = HelperThread.fetchDecoder.tryStart { [self] in
            ThreadTransactions.didBegin(write: inWrite)
            defer { ThreadTransactions.didEnd(write: inWrite) }
            let strings = SharedStringTable()
            lock.lock()
            defer { lock.unlock() }
            while true {
                if let range = claim() {
                    run(range, strings)
                } else if walkEnded || lowestFailure != nil {
                    return
                } else {
                    lock.wait()   // nothing published yet: wait for the walk
                }
            }
        }
    }

    /// Claims the next published chunk, or `nil` when there is none or a record has failed
    /// (called with the lock held).
    private func claim() -> Range<Int>? {
        guard lowestFailure == nil, claimed < published else { return nil }
        var end = claimed + Self.chunkSize
        if let rangeEnds {
            while rangeEnds[nextRangeEnd] <= claimed { nextRangeEnd += 1 }
            end = rangeEnds[nextRangeEnd]
        }
        let range = claimed..<min(end, published)
        claimed = range.upperBound
        return range
    }

    /// Decodes `range` outside the lock and records the outcome (called and returning with the
    /// lock held).
    private func run(_ range: Range<Int>, _ strings: SharedStringTable) {
        lock.unlock()
        let failure = decodeRecords!(range, strings)
        lock.lock()
        if let failure {
            decoded.append(range.lowerBound..<failure.index)
            if lowestFailure.map({ failure.index < $0.index }) ?? true { lowestFailure = failure }
        } else {
            decoded.append(range)
        }
    }

    /// Hands the first `count` records to the decoder (the walk's side, every ``chunkSize``
    /// records); `false` once a record has failed to decode, so the walk can stop.
    @usableFromInline
    func publish(_ count: Int) -> Bool {
        lock.withLock {
            published = count
            lock.signal()
            return lowestFailure == nil
        }
    }

    /// Ends the walk at `count` records, decodes on this thread what nobody has claimed, and
    /// waits for the decoder to finish: after this, nothing reads the transaction's pages.
    @usableFromInline
    func finish(walked count: Int) {
        lock.withLock {
            published = count
            walkEnded = true
            lock.broadcast()
            let strings = SharedStringTable()
            while let range = claim() { run(range, strings) }
        }
        if hasHelper { HelperThread.fetchDecoder.waitUntilIdle() }
    }

    /// The record with the lowest index that failed to decode, if any (after ``finish(walked:)``).
    @usableFromInline
    var failure: Failure? { lock.withLock { lowestFailure } }

    /// The ranges of records decoded (after ``finish(walked:)``): every record of the walk when
    /// ``failure`` is `nil`.
    @usableFromInline
    var decodedRanges: [Range<Int>] { lock.withLock { decoded } }
}

/// A fetch's buffers, for its decoder thread: each record's place is written by one thread
/// only, and read by the fetch after ``FetchPipeline/finish(walked:)``.
@usableFromInline
struct SendablePointer<T>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<T>

    @inlinable
    init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
