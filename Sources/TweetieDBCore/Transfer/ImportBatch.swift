import Foundation

/// An import's record lines, decoded on every core in batches, in line order.
///
/// Why: decoding JSON is most of an import's time, and lines are independent until they reach
/// the store. The import reads a batch of lines on its writer thread and starts the workers on
/// it; they split, check and decode their slices (``RecordJSONReader``, then the storage encoding
/// and index entries) while the writer thread applies the batch before it in line order —
/// duplicate keys within the file, the writes, the counts — and reads the next one. (Decoding a
/// batch and then applying it left the workers idle during every apply.) Workers never touch
/// LMDB, so the write transaction stays on its thread.
///
/// Rules: a line's problem is found by the same checks, in the same order, as one line at a
/// time, and the first bad line (by number) is the one reported. A batch being decoded reads
/// only its own lines: before the code that started it returns or throws, ``finish(_:)`` it or
/// ``waitUntilDecoded()``. Memory is bounded by two batches (`workers × linesPerWorker` lines
/// each): one being decoded, one being applied or read.
///
/// A batch allocates nothing per line once its buffers have grown to a batch's size: the lines
/// lie back to back in one buffer, and each worker encodes its slice's records into one
/// ``EncodedChunk`` (key, record, index entries as byte runs). An array per line and three or
/// more per record cost an allocation on a worker and a free on the writer thread each.
///
/// ```swift
/// let batch = ImportBatch(descriptors: collectionsByName, expected: ["tweets"])
/// defer { batch.waitUntilDecoded() }
/// _ = try batch.read(from: &lineReader, number: 2)
/// batch.startDecoding()
/// try batch.finish { number, result in … }
/// ```
final class ImportBatch {
    /// What a line decodes to: its collection, and its record encoded for storage in a worker's
    /// chunk (valid until the batch is finished).
    struct Decoded {
        let descriptor: CollectionDescriptor
        let chunk: EncodedChunk
        let firstRun: Int

        var collection: String { descriptor.name }
        /// The encoded primary key.
        var primaryKey: UnsafeRawBufferPointer { chunk.run(firstRun) }
        /// The record's stored bytes.
        var record: UnsafeRawBufferPointer { chunk.run(firstRun + 1) }
        /// The entry keys of its indexes (each one's value is the primary key).
        var indexEntries: ChunkEntries { ChunkEntries(chunk, firstRun: firstRun + 2) }
    }

    /// What ``read(from:number:)`` found.
    enum LineRead {
        /// A line, added to the batch.
        case added
        /// An empty line (not added).
        case empty
        /// A line over the limit (not added).
        case tooLong
        /// The last line has no newline (not added).
        case unterminated
        /// The end of the input.
        case end
    }

    /// Lines each worker decodes per batch.
    static let linesPerWorker = 1024
    /// Pieces a batch is cut into per worker. A worker takes the next piece when it is done with
    /// one, so a worker that loses its core for a while — to the writer thread applying the batch
    /// before, which runs beside the workers — delays the batch by a piece, not by half of it.
    /// Measured against one slice per worker in docs/benchmark-findings.md ("Export and import").
    static let piecesPerWorker = 8

    let workers: Int
    let capacity: Int
    /// `workers × piecesPerWorker`: the most slices a batch is cut into.
    let pieces: Int
    private let context: Context
    /// The bytes of the lines added since the last ``finish(_:)``, back to back.
    private let text = RecordByteBuffer(capacity: 64 * 1024)
    /// Each line's number in the file and where its bytes end in `text` (allocated once: workers
    /// read them in place).
    private let lines: UnsafeMutableBufferPointer<(number: Int, end: Int)>
    private let readers: UnsafeMutableBufferPointer<RecordJSONReader>
    /// Each piece's encoded records.
    private let chunks: [EncodedChunk]
    /// Each line's outcome, by position in `lines`.
    private let results: UnsafeMutableBufferPointer<Result<Decoded, TransferError>?>
    private(set) var count = 0
    private let decoded = DispatchGroup()
    private var decoding = false

    /// A batch for the collections a header announced (`expected`), among those the store has.
    init(descriptors: [String: CollectionDescriptor], expected: [String],
         workers: Int = min(8, ProcessInfo.processInfo.activeProcessorCount)) {
        self.workers = max(1, workers)
        capacity = self.workers * Self.linesPerWorker
        pieces = self.workers * Self.piecesPerWorker
        context = Context(descriptors: descriptors, expected: expected)
        lines = .allocate(capacity: capacity)
        readers = .allocate(capacity: pieces)
        readers.initialize(repeating: RecordJSONReader())
        chunks = (0..<pieces).map { _ in EncodedChunk(fieldsPerRecord: 0) }
        results = .allocate(capacity: capacity)
        results.initialize(repeating: nil)
    }

    deinit {
        decoded.wait()
        lines.deallocate()
        _ = readers.deinitialize()
        readers.deallocate()
        _ = results.deinitialize()
        results.deallocate()
    }

    var isFull: Bool { count >= capacity }

    /// Reads the next line from `reader`, numbered `number` as in the file, and adds it to the
    /// batch unless it is empty, too long or unterminated. Not while decoding.
    func read(from reader: inout LineReader, number: Int) throws -> LineRead {
        precondition(!decoding && count < capacity, "ImportBatch.read while decoding or full")
        let start = text.count
        guard let kind = try reader.next(appendingTo: text) else { return .end }
        switch kind {
        case .tooLong: return .tooLong
        case .unterminated:
            text.count = start
            return .unterminated
        case .line where text.count == start:
            return .empty
        case .line:
            lines[count] = (number, text.count)
            count += 1
            return .added
        }
    }

    /// Starts decoding the lines added, each to its record or to its problem, on the workers.
    func startDecoding() {
        precondition(!decoding, "ImportBatch.startDecoding twice")
        guard count > 0 else { return }
        decoding = true
        let slices = min(pieces, count)
        let work = SliceWork(text: UnsafeRawPointer(text.base), lines: UnsafeBufferPointer(rebasing: lines[0..<count]),
                             readers: readers, chunks: chunks, results: results,
                             perSlice: (count + slices - 1) / slices, context: context)
        DispatchQueue.global().async(group: decoded) {
            if slices == 1 {
                work.decode(slice: 0)
            } else {
                DispatchQueue.concurrentPerform(iterations: slices) { work.decode(slice: $0) }
            }
        }
    }

    /// Waits until no worker reads this batch any more.
    func waitUntilDecoded() {
        decoded.wait()
    }

    /// Waits for the decoding ``startDecoding()`` started, passes the results to `body` in line
    /// order up to the first problem, and empties the batch (also when `body` throws).
    func finish(_ body: (_ number: Int, _ result: Result<Decoded, TransferError>) throws -> Void) rethrows {
        decoded.wait()
        let lineCount = count
        defer {
            for index in 0..<lineCount { results[index] = nil }
            text.count = 0
            count = 0
            decoding = false
        }
        // In line order, up to the first problem (a slice stops at its first; what follows it is
        // not needed, because that line stops the import).
        for index in 0..<lineCount {
            guard let result = results[index] else { return }
            try body(lines[index].number, result)
            if case .failure = result { return }
        }
    }

    /// What the workers read: the store's collections and the header's.
    private struct Context: @unchecked Sendable {
        let descriptors: [String: CollectionDescriptor]
        let expected: [String]

        /// One line's checks, in the order a one-at-a-time import makes them: the line's shape,
        /// its collection, its record.
        func decode(_ text: UnsafeRawBufferPointer, line: Int, reader: inout RecordJSONReader, into chunk: EncodedChunk) throws -> Decoded {
            // One pass for a line in the export's own layout whose record parses with every key
            // distinct and within the nesting limit (the wrapper object counted): nothing the
            // checks below could refuse in its shape. Any other line takes them, in order.
            if let (name, range) = Store.exportLayout(text) {
                let json = UnsafeRawBufferPointer(rebasing: text[range])
                if let tape = try? JSONTape.parse(json, depth: 1, rejectingAmbiguousKeys: true) {
                    return try decode(json, at: range.lowerBound, parsed: tape, collection: name, line: line, reader: &reader, into: chunk)
                }
            }
            let (collection, recordJSON) = try Store.splitRecordLine(Array(text), line: line)
            // A slice of the line itself, or (for another layout) the record written anew.
            return try recordJSON.withUnsafeBytes { json in
                try decode(json, at: recordJSON.startIndex, parsed: nil, collection: collection, line: line, reader: &reader, into: chunk)
            }
        }

        /// The checks after the line's shape: its collection, its record (whose text starts at
        /// `offset` in its line).
        private func decode(_ json: UnsafeRawBufferPointer, at offset: Int, parsed: JSONTape?, collection: String, line: Int,
                            reader: inout RecordJSONReader, into chunk: EncodedChunk) throws -> Decoded {
            guard let descriptor = descriptors[collection], expected.contains(collection) else {
                throw TransferError(line: line, reason: "unknown collection '\(collection)' (the header lists: \(expected.joined(separator: ", ")))")
            }
            do {
                let firstRun = chunk.runCount
                try descriptor.encodeJSON(json, parsed, &reader, chunk)
                return Decoded(descriptor: descriptor, chunk: chunk, firstRun: firstRun)
            } catch let error as DecodingError {
                let field = JSONFieldDiagnosis.badByte(in: json, startingAt: offset) ?? JSONFieldDiagnosis.explain(error, json: Data(json)) { json in
                    var reader = RecordJSONReader()
                    let scratch = EncodedChunk(fieldsPerRecord: 0)
                    try json.withUnsafeBytes { try descriptor.encodeJSON($0, nil, &reader, scratch) }
                }
                throw TransferError(line: line, reason: "the record is not a valid \(descriptor.typeName): \(field ?? Store.explain(error))")
            } catch {
                throw TransferError(line: line, reason: "the record is not a valid \(descriptor.typeName): \(error)")
            }
        }
    }

    /// What each worker touches: for each slice it takes, that slice's lines, results, reader and chunk.
    private struct SliceWork: @unchecked Sendable {
        let text: UnsafeRawPointer
        let lines: UnsafeBufferPointer<(number: Int, end: Int)>
        let readers: UnsafeMutableBufferPointer<RecordJSONReader>
        let chunks: [EncodedChunk]
        let results: UnsafeMutableBufferPointer<Result<Decoded, TransferError>?>
        let perSlice: Int
        let context: Context

        func decode(slice: Int) {
            // Slices of `perSlice` lines, rounded up: the last ones may be short or empty.
            let first = slice * perSlice, end = min(lines.count, first + perSlice)
            guard first < end else { return }
            var reader = readers[slice]
            defer { readers[slice] = reader }
            let chunk = chunks[slice]
            chunk.reset(first: 0, limit: 0)
            for index in first..<end {
                let number = lines[index].number
                let start = index == 0 ? 0 : lines[index - 1].end
                let bytes = UnsafeRawBufferPointer(start: text + start, count: lines[index].end - start)
                do {
                    results[index] = .success(try context.decode(bytes, line: number, reader: &reader, into: chunk))
                    continue
                } catch let error as TransferError {
                    results[index] = .failure(error)
                } catch {
                    results[index] = .failure(TransferError(line: number, reason: "\(error)"))
                }
                return // later lines of this slice are not needed: this one stops the import
            }
        }
    }
}
