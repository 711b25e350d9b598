import Foundation

/// Turns an export's records into NDJSON lines on every core, in batches, keeping their order.
///
/// Why: encoding is nearly all of an export's time, and records are independent. The cursor
/// walks the collection on the calling thread and collects views of the stored bytes; each full
/// batch is cut into contiguous slices (``piecesPerWorker`` per worker), the workers encode them,
/// each taking the next slice when done with one, and their text is handed to `write` in record
/// order, on the calling thread. Output is byte-identical
/// to a one-thread export.
///
/// Rules: the views are valid because the export reads in one read-only transaction, where
/// LMDB's values stay in place until the transaction ends; never use this inside a write
/// transaction. Memory is bounded by one batch (`workers × recordsPerWorker` lines).
///
/// ```swift
/// var encoder = ExportEncoder(workers: 2)
/// encoder.add(key: key, value: value)
/// if encoder.isFull { try encoder.flush(linePrefix: prefix, descriptor: descriptor, path: path, write) }
/// ```
struct ExportEncoder {
    /// Records each worker encodes per batch.
    static let recordsPerWorker = 2048
    /// Pieces a batch is cut into per worker. A worker takes the next piece when it is done with
    /// one, so a worker that loses its core for a while (to the kernel's writeback, another
    /// process) delays the batch by a piece, not by half of it, and the other worker is not left
    /// waiting at the batch's end. Measured against one slice per worker in
    /// docs/benchmark-findings.md ("Export and import"): 1M records 15–28 % faster on two cores.
    static let piecesPerWorker = 8

    let workers: Int
    /// `workers × piecesPerWorker`: the most slices a batch is cut into.
    let pieces: Int
    private var writers: [RecordJSONWriter]
    private var outputs: [[UInt8]]
    private var pending: [(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)] = []

    /// An encoder for `workers` threads (at least one); by default one per active core, at most 8.
    init(workers: Int = min(8, ProcessInfo.processInfo.activeProcessorCount)) {
        self.workers = max(1, workers)
        pieces = self.workers * Self.piecesPerWorker
        // One writer per piece: a writer's scratch and key orders are reused from batch to batch.
        writers = (0..<pieces).map { _ in RecordJSONWriter() }
        outputs = Array(repeating: [], count: pieces)
        pending.reserveCapacity(self.workers * Self.recordsPerWorker)
    }

    /// How many records wait to be encoded.
    var count: Int { pending.count }
    /// Whether the batch is full and should be flushed.
    var isFull: Bool { pending.count >= workers * Self.recordsPerWorker }

    /// Adds one stored record (views into the read transaction's pages).
    mutating func add(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        pending.append((key, value))
    }

    /// Encodes the waiting records as lines `linePrefix` + record JSON + `}\n`, passes the text
    /// to `write` in record order, and empties the batch. The first record that cannot be decoded
    /// stops the export with its key; nothing of its batch is written.
    mutating func flush(linePrefix: [UInt8], descriptor: CollectionDescriptor, path: String,
                        _ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        let slices = min(pieces, pending.count)
        let perSlice = (pending.count + slices - 1) / slices
        var failures = [(index: Int, error: any Error)?](repeating: nil, count: slices)
        try pending.withUnsafeBufferPointer { records in
            try writers.withUnsafeMutableBufferPointer { writers in
                try outputs.withUnsafeMutableBufferPointer { outputs in
                    try failures.withUnsafeMutableBufferPointer { failures in
                        let work = SliceWork(records: records, writers: writers, outputs: outputs, failures: failures,
                                             perSlice: perSlice, linePrefix: linePrefix, descriptor: descriptor)
                        if slices == 1 {
                            work.encode(slice: 0)
                        } else {
                            DispatchQueue.concurrentPerform(iterations: slices) { work.encode(slice: $0) }
                        }
                        if let (index, error) = failures.lazy.compactMap({ $0 }).first {
                            let key = descriptor.describeKey(Array(records[index].key))
                            if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
                                // The stored record decoded; one of its values has no JSON form.
                                throw StoreError(.encodingFailed, operation: "export", database: descriptor.name, path: path,
                                                 message: "record \(key) cannot be written as JSON: \(context.debugDescription)")
                            }
                            throw StoreError(.decodingFailed, operation: "export", database: descriptor.name, path: path,
                                             message: "record \(key) cannot be decoded: \(error)")
                        }
                        // (The last slices of a short batch may be empty: `write` never gets nothing.)
                        for slice in 0..<slices where !outputs[slice].isEmpty {
                            try outputs[slice].withUnsafeBytes(write)
                            outputs[slice].removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// What each worker reads and writes: for each slice it takes, that slice's records, writer,
    /// output and failure slot (no two workers touch the same element).
    private struct SliceWork: @unchecked Sendable {
        let records: UnsafeBufferPointer<(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)>
        let writers: UnsafeMutableBufferPointer<RecordJSONWriter>
        let outputs: UnsafeMutableBufferPointer<[UInt8]>
        let failures: UnsafeMutableBufferPointer<(index: Int, error: any Error)?>
        let perSlice: Int
        let linePrefix: [UInt8]
        let descriptor: CollectionDescriptor

        func encode(slice: Int) {
            let start = slice * perSlice
            let end = min(records.count, start + perSlice)
            guard start < end else { return }
            // In place, through the pointers: a copy of the writer would not own its scratch.
            for index in start..<end {
                outputs[slice].append(contentsOf: linePrefix)
                do {
                    try descriptor.appendJSON(records[index].value, &writers[slice], &outputs[slice])
                } catch {
                    failures[slice] = (index, error)
                    return
                }
                outputs[slice].append(contentsOf: [0x7D, 0x0A]) // "}\n"
            }
        }
    }
}
