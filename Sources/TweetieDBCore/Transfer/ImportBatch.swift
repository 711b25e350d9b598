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
/// ```swift
/// let batch = ImportBatch(descriptors: collectionsByName, expected: ["tweets"])
/// defer { batch.waitUntilDecoded() }
/// batch.append(lineBytes, number: 2)
/// batch.startDecoding()
/// try batch.finish { number, result in … }
/// ```
final class ImportBatch {
    /// What a line decodes to.
    struct Decoded {
        var collection: String
        var descriptor: CollectionDescriptor
        var primaryKey: [UInt8]
        var record: [UInt8]
        var indexEntries: [(Int, [UInt8], [UInt8])]
    }

    /// Lines each worker decodes per batch.
    static let linesPerWorker = 1024

    let workers: Int
    let capacity: Int
    private let context: Context
    /// The lines added since the last ``finish(_:)`` (allocated once: workers read them in place).
    private let lines: UnsafeMutableBufferPointer<(number: Int, bytes: [UInt8])>
    private let readers: UnsafeMutableBufferPointer<RecordJSONReader>
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
        context = Context(descriptors: descriptors, expected: expected)
        lines = .allocate(capacity: capacity)
        readers = .allocate(capacity: self.workers)
        readers.initialize(repeating: RecordJSONReader())
        results = .allocate(capacity: capacity)
        results.initialize(repeating: nil)
    }

    deinit {
        decoded.wait()
        lines.baseAddress!.deinitialize(count: count)
        lines.deallocate()
        _ = readers.deinitialize()
        readers.deallocate()
        _ = results.deinitialize()
        results.deallocate()
    }

    var isFull: Bool { count >= capacity }

    /// Adds a record line (without its newline), numbered as in the file. Not while decoding.
    func append(_ bytes: [UInt8], number: Int) {
        precondition(!decoding && count < capacity, "ImportBatch.append while decoding or full")
        (lines.baseAddress! + count).initialize(to: (number, bytes))
        count += 1
    }

    /// Starts decoding the lines added, each to its record or to its problem, on the workers.
    func startDecoding() {
        precondition(!decoding, "ImportBatch.startDecoding twice")
        guard count > 0 else { return }
        decoding = true
        let slices = min(workers, count)
        let work = SliceWork(lines: UnsafeBufferPointer(rebasing: lines[0..<count]), readers: readers,
                             results: results, perSlice: (count + slices - 1) / slices, context: context)
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
            lines.baseAddress!.deinitialize(count: lineCount)
            count = 0
            decoding = false
        }
        // In line order, up to the first problem (a slice stops at its first; what follows it is
        // not needed, because that line stops the import).
        for index in 0..<lineCount {
            guard let result = results[index] else { return }
            results[index] = nil
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
        func decode(_ bytes: [UInt8], line: Int, reader: inout RecordJSONReader) throws -> Decoded {
            // One pass for a line in the export's own layout whose record parses with every key
            // distinct and within the nesting limit (the wrapper object counted): nothing the
            // checks below could refuse in its shape. Any other line takes them, in order.
            let fast = try bytes.withUnsafeBytes { text -> Decoded? in
                guard let (name, range) = Store.exportLayout(text) else { return nil }
                let json = UnsafeRawBufferPointer(rebasing: text[range])
                guard let tape = try? JSONTape.parse(json, depth: 1, rejectingAmbiguousKeys: true) else { return nil }
                return try decode(json, parsed: tape, collection: name, line: line, reader: &reader)
            }
            if let fast { return fast }
            let (collection, recordJSON) = try Store.splitRecordLine(bytes, line: line)
            return try recordJSON.withUnsafeBytes { json in
                try decode(json, parsed: nil, collection: collection, line: line, reader: &reader)
            }
        }

        /// The checks after the line's shape: its collection, its record.
        private func decode(_ json: UnsafeRawBufferPointer, parsed: JSONTape?, collection: String, line: Int,
                            reader: inout RecordJSONReader) throws -> Decoded {
            guard let descriptor = descriptors[collection], expected.contains(collection) else {
                throw TransferError(line: line, reason: "unknown collection '\(collection)' (the header lists: \(expected.joined(separator: ", ")))")
            }
            do {
                let (primaryKey, record, indexEntries) = try descriptor.fromJSON(json, parsed, &reader)
                return Decoded(collection: collection, descriptor: descriptor, primaryKey: primaryKey, record: record, indexEntries: indexEntries)
            } catch let error as DecodingError {
                let number = JSONNumberDiagnosis.explain(error, json: Data(json)) { json in
                    var reader = RecordJSONReader()
                    _ = try json.withUnsafeBytes { try descriptor.fromJSON($0, nil, &reader) }
                }
                throw TransferError(line: line, reason: "the record is not a valid \(descriptor.typeName): \(number ?? Store.explain(error))")
            } catch {
                throw TransferError(line: line, reason: "the record is not a valid \(descriptor.typeName): \(error)")
            }
        }
    }

    /// What each worker touches: its own slice of lines and results, and its own reader.
    private struct SliceWork: @unchecked Sendable {
        let lines: UnsafeBufferPointer<(number: Int, bytes: [UInt8])>
        let readers: UnsafeMutableBufferPointer<RecordJSONReader>
        let results: UnsafeMutableBufferPointer<Result<Decoded, TransferError>?>
        let perSlice: Int
        let context: Context

        func decode(slice: Int) {
            var reader = readers[slice]
            defer { readers[slice] = reader }
            for index in (slice * perSlice)..<min(lines.count, (slice + 1) * perSlice) {
                let number = lines[index].number
                do {
                    results[index] = .success(try context.decode(lines[index].bytes, line: number, reader: &reader))
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
