// The new index entries a write puts, wherever its caller built them: in the writer's scratch
// encoders (`add`) or in an encoded chunk (a batch, an import), read where they lie. A protocol
// with its two small sources in one file: the write is generic over it, so that a batch's
// entries are never copied on their way from the chunk to LMDB.

/// Where a write's new index entries are, one per index position.
@usableFromInline
protocol IndexEntrySource {
    /// Calls `body` with the entry key of the index at `position`.
    func withEntry<T>(_ position: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T
}

/// The entries the writer's scratch encoders hold (`scratch.newEntries`).
@usableFromInline
struct ScratchEntries: IndexEntrySource {
    @usableFromInline let scratch: WriteScratch

    @inlinable
    init(_ scratch: WriteScratch) { self.scratch = scratch }

    @inlinable
    func withEntry<T>(_ position: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try scratch.newEntries[position].bytes.withUnsafeBytes(body)
    }
}

/// The entries of one record of an encoded chunk: runs `firstRun`, `firstRun + 1`, ….
@usableFromInline
struct ChunkEntries: IndexEntrySource {
    @usableFromInline let chunk: EncodedChunk
    @usableFromInline let firstRun: Int

    @inlinable
    init(_ chunk: EncodedChunk, firstRun: Int) {
        self.chunk = chunk
        self.firstRun = firstRun
    }

    @inlinable
    func withEntry<T>(_ position: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(chunk.run(firstRun + position))
    }
}
