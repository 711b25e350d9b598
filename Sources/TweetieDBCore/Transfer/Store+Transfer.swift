import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Store {
    /// Writes every record as NDJSON, in one consistent snapshot: a header line (format, version,
    /// collections with their counts), then one line per record, `{"collection":…,"record":{…}}`,
    /// collections by name, records by primary key. Output is deterministic (sorted JSON keys),
    /// so export → import into an empty database → export is byte-identical. Records are encoded
    /// on every core in batches (`ExportEncoder`); `write` and `progress` are called on the calling
    /// thread, in order. Memory stays constant.
    ///
    /// ```swift
    /// try store.exportNDJSON { chunk in FileHandle.standardOutput.write(Data(chunk)) }
    /// ```
    @discardableResult
    public func exportNDJSON(progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
                             _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        try read { reader in
            let tx = reader.transaction
            var header = ExportHeader(format: ExportHeader.formatName, version: ExportHeader.currentVersion, collections: [])
            for name in collectionNames {
                let descriptor = collectionsByName[name]!
                header.collections.append(.init(name: name, schemaVersion: descriptor.schemaVersion,
                                                count: try tx.stats(of: descriptor.records).entries))
            }
            let total = header.collections.reduce(0) { $0 + $1.count }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var out = Array(try encoder.encode(header))
            out.append(0x0A)
            try out.withUnsafeBytes(write)
            var done = 0
            var batch = ExportEncoder()
            for name in collectionNames {
                let descriptor = collectionsByName[name]!
                let prefix = Array("{\"collection\":".utf8) + Array(try encoder.encode(name)) + Array(",\"record\":".utf8)
                try tx.forEach(in: descriptor.records) { key, value in
                    batch.add(key: key, value: value)
                    if batch.isFull {
                        done += batch.count
                        try batch.flush(linePrefix: prefix, descriptor: descriptor, path: path, write)
                        progress?(done, total)
                    }
                    return true
                }
                done += batch.count
                try batch.flush(linePrefix: prefix, descriptor: descriptor, path: path, write)
            }
            progress?(done, total)
            return done
        }
    }

    /// Imports an NDJSON export read from `fileDescriptor`, all or nothing.
    ///
    /// Every line is validated; the first bad one — invalid JSON, a wrong type or a missing field,
    /// an unknown collection, a duplicate key within the file, a line over `maxLineBytes`, a
    /// truncated last line, an empty or header-less input, counts that disagree with the header —
    /// stops the import with its line number and reason, and the database is exactly as it was.
    ///
    /// The records go in in one write transaction, whose body may run more than once (see
    /// `Store.write`): each run reads them again from the first record line.
    /// So the input is read twice if need be: a regular file is seeked back; an input that cannot
    /// seek (a pipe, standard input from another command) is first copied, after its header is
    /// checked, to an unlinked `0600` temporary file in `$TMPDIR` (default `/tmp`), which needs as
    /// much free space as the input. Knowing the input's size, the import grows the map once,
    /// before the transaction, to what the records are expected to need, so that a second run is
    /// rare. `progress` is called from inside the transaction: when it runs again, the counts
    /// start again from zero. The buffer holding a line grows with the line, up to `maxLineBytes`.
    ///
    /// Memory stays near LMDB's own limit, however large the input: besides one batch of lines
    /// and records, the import holds what its one transaction has written — LMDB keeps up to 2^17
    /// dirty pages (512 MiB) in memory and then writes further ones to the file as it goes — and
    /// the primary keys seen so far (to refuse a duplicate): 8 bytes a key when keys of up to 8
    /// bytes come in order, as an export writes them, more for keys out of order or longer. A
    /// million tweets (a 467 MiB file) raised the process's anonymous memory by 400–540 MiB
    /// (BENCHMARKS.md, suite 6).
    ///
    /// ```swift
    /// let summary = try store.importNDJSON(from: open("export.ndjson", O_RDONLY), mode: .merge)
    /// ```
    @discardableResult
    public func importNDJSON(from fileDescriptor: Int32, mode: ImportMode, maxLineBytes: Int = 1 << 20,
                             progress: ((_ records: Int, _ bytes: Int) -> Void)? = nil) throws -> ImportSummary {
        try importNDJSON(from: fileDescriptor, mode: mode, maxLineBytes: maxLineBytes, reserveMap: true, progress: progress)
    }

    /// ``importNDJSON(from:mode:maxLineBytes:progress:)``; `reserveMap: false` skips growing the
    /// map ahead (tests use it to make the transaction run again).
    func importNDJSON(from fileDescriptor: Int32, mode: ImportMode, maxLineBytes: Int, reserveMap: Bool,
                      progress: ((_ records: Int, _ bytes: Int) -> Void)?) throws -> ImportSummary {
        var reader = LineReader(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes)
        // Read and check the header before starting the transaction (and before copying an input
        // that cannot seek).
        let header = try Store.readHeader(from: &reader, maxLineBytes: maxLineBytes)
        for collection in header.collections {
            guard let descriptor = collectionsByName[collection.name] else {
                throw TransferError(line: 1, reason: "the header names collection '\(collection.name)', which this database does not have (it has: \(collectionNames.joined(separator: ", ")))")
            }
            guard collection.schemaVersion <= descriptor.schemaVersion else {
                throw TransferError(line: 1, reason: "collection '\(collection.name)' was exported with schema version \(collection.schemaVersion), newer than this database's \(descriptor.schemaVersion)")
            }
        }
        let expected = Dictionary(header.collections.map { ($0.name, $0.count) }, uniquingKeysWith: +)
        var input = try ImportInput(after: reader, on: fileDescriptor, maxLineBytes: maxLineBytes)
        defer { input.close() }
        if reserveMap {
            try environment.growMap(toAtLeast: Store.mapSizeNeeded(toImport: input.size, into: environment.info()))
        }

        return try write { writer in
            // This body may run again after the map grows: everything it counts starts afresh,
            // and the records are read again from the first one.
            try input.rewind()
            var summary = ImportSummary()
            var seen = ImportKeySet()
            if mode == .replace {
                for name in collectionNames {
                    try writer.deleteAll(in: collectionsByName[name]!)
                }
            }
            // Lines are read here and decoded on every core a batch at a time (ImportBatch): while
            // one batch decodes, the batch before it is applied here in line order and the next
            // one read. Reading stops at the first line that cannot be read; its problem is
            // thrown after the lines before it are applied, like a bad line's.
            let batches = [ImportBatch(descriptors: collectionsByName, expected: header.collections.map(\.name)),
                           ImportBatch(descriptors: collectionsByName, expected: header.collections.map(\.name))]
            // Whatever ends this run of the body, no worker may still read a batch.
            defer { for batch in batches { batch.waitUntilDecoded() } }
            // New records' non-unique index entries are written in key order, per collection,
            // when the collection changes and at the end; whatever ends this run of the body drops
            // those not written.
            writer.holdBackIndexEntries()
            defer { writer.stopHoldingBack() }
            var holding: CollectionDescriptor?
            var lineNumber = 1
            var readProblem: TransferError?
            var ended = false
            /// Runs `body`; a store error (a put, the held-back entries) becomes line `line`'s.
            func atLine<T>(_ line: Int?, _ body: () throws -> T) throws -> T {
                do {
                    return try body()
                } catch let error as StoreError {
                    throw TransferError(line: line, reason: error.message)
                }
            }
            func apply(_ batch: ImportBatch) throws {
                try batch.finish { number, result in
                    let decoded = try result.get()
                    if let holding, holding !== decoded.descriptor {
                        try atLine(number) { try writer.writePendingIndexEntries(descriptor: holding) }
                    }
                    holding = decoded.descriptor
                    guard seen.insert(decoded.primaryKey, into: decoded.descriptor) else {
                        throw TransferError(line: number, reason: "duplicate key \(decoded.descriptor.describeKey(Array(decoded.primaryKey))) in collection '\(decoded.collection)' (it appeared earlier in the file)")
                    }
                    summary.counts.add(try atLine(number) {
                        try writer.put(encodedRecord: decoded.record, primaryKey: decoded.primaryKey,
                                       entries: decoded.indexEntries, descriptor: decoded.descriptor)
                    })
                    summary.perCollection[decoded.collection, default: 0] += 1
                    if number % 10_000 == 0 { progress?(summary.records, input.reader.bytesRead) }
                }
            }
            var decoding: ImportBatch?
            var filling = 0
            while !ended {
                let batch = batches[filling]
                while !batch.isFull {
                    let read: ImportBatch.LineRead
                    do {
                        read = try batch.read(from: &input.reader, number: lineNumber + 1)
                    } catch let error as TransferError {
                        // After the lines before it, like a bad line.
                        readProblem = error
                        ended = true
                        break
                    }
                    if case .end = read { ended = true; break }
                    lineNumber += 1
                    switch read {
                    case .tooLong:
                        readProblem = TransferError(line: lineNumber, reason: "the line is longer than \(maxLineBytes) bytes")
                    case .unterminated:
                        readProblem = TransferError(line: lineNumber, reason: "the last line is truncated (it does not end with a newline)")
                    case .empty:
                        readProblem = TransferError(line: lineNumber, reason: "the line is empty")
                    case .added, .end:
                        break
                    }
                    if readProblem != nil { ended = true; break }
                }
                batch.startDecoding()
                if let earlier = decoding { try apply(earlier) }
                decoding = batch
                filling = 1 - filling
            }
            if let last = decoding { try apply(last) }
            if let readProblem { throw readProblem }
            if let holding { try atLine(nil) { try writer.writePendingIndexEntries(descriptor: holding) } }
            for (name, count) in expected where summary.perCollection[name, default: 0] != count {
                throw TransferError(line: nil, reason: "the header announces \(count) record(s) for '\(name)' but the file has \(summary.perCollection[name, default: 0]): it is truncated or was edited")
            }
            progress?(summary.records, input.reader.bytesRead)
            return summary
        }
    }

    /// Reads and checks the header line (format and version).
    static func readHeader(from reader: inout LineReader, maxLineBytes: Int) throws -> ExportHeader {
        let header: ExportHeader
        switch try reader.next() {
        case nil:
            throw TransferError(line: nil, reason: "the input is empty: expected a tweetie-db export (a header line, then one record per line)")
        case .tooLong:
            throw TransferError(line: 1, reason: "the header line is longer than \(maxLineBytes) bytes")
        case .unterminated(let bytes), .line(let bytes):
            switch JSONStructure.check(bytes) {
            case .tooDeep:
                throw TransferError(line: 1, reason: "the first line nests arrays or objects deeper than \(JSONNesting.maximumDepth) levels; it is not a tweetie-db export header")
            case .duplicateKey(let key):
                throw TransferError(line: 1, reason: "the header has the field '\(key)' more than once in one object; each field may appear once")
            case nil:
                break
            }
            do {
                header = try JSONDecoder().decode(ExportHeader.self, from: Data(bytes))
            } catch {
                throw TransferError(line: 1, reason: "the first line is not a tweetie-db export header (expected {\"format\":\"tweetie-db-export\",\"version\":1,\"collections\":[…]})")
            }
        }
        guard header.format == ExportHeader.formatName else {
            throw TransferError(line: 1, reason: "the header's format is '\(header.format)', not '\(ExportHeader.formatName)'")
        }
        guard header.version <= ExportHeader.currentVersion, header.version >= 1 else {
            throw TransferError(line: 1, reason: "export format version \(header.version) is not supported (this version reads 1…\(ExportHeader.currentVersion))")
        }
        return header
    }

    /// How many bytes of map an import of `inputBytes` bytes of record lines is expected to need:
    /// the pages in use now (a replace frees them only at its commit) plus
    /// ``importBytesPerInputByte`` per input byte.
    static func mapSizeNeeded(toImport inputBytes: Int, into info: StoreInfo) -> Int {
        let used = info.usedBytes
        let added = inputBytes.multipliedReportingOverflow(by: importBytesPerInputByte)
        let total = used.addingReportingOverflow(added.partialValue)
        return added.overflow || total.overflow ? .max : total.partialValue
    }

    /// The map bytes an import is expected to need per byte of NDJSON. Measured: 1.9–2.0 for
    /// small records when index entries went in in random order (their pages about half full);
    /// new records' entries are now held back and appended in key order, which needs less, and
    /// entries replacing stored ones still go in at random. 3 leaves a margin. Too much costs
    /// address space only: the file grows with what is written.
    static let importBytesPerInputByte = 3

    /// Splits `{"collection":"name","record":{…}}` into the name and the record's JSON.
    ///
    /// Lines in exactly the layout `exportNDJSON` writes (`{"collection":"NAME","record":` … `}`,
    /// with a plain name) are sliced without parsing, so the record is parsed once, by its
    /// decoder; any other valid layout takes the general path.
    static func splitRecordLine(_ bytes: [UInt8], line: Int) throws -> (String, ArraySlice<UInt8>) {
        switch JSONStructure.check(bytes) {
        case .tooDeep:
            throw TransferError(line: line, reason: "the line nests arrays or objects deeper than \(JSONNesting.maximumDepth) levels")
        case .duplicateKey(let key):
            throw TransferError(line: line, reason: "the field '\(key)' appears more than once in one object; each field may appear once")
        case nil:
            break
        }
        if let (name, record) = bytes.withUnsafeBytes({ exportLayout($0) }) {
            return (name, bytes[record])
        }
        return try splitRecordLineParsing(bytes, line: line)
    }

    /// For a line in exactly the layout `exportNDJSON` writes — `{"collection":"NAME","record":`,
    /// an object, `}` — the collection's name and where the record's object is; `nil` for any
    /// other layout. Only the layout is checked, not the record.
    static func exportLayout(_ bytes: UnsafeRawBufferPointer) -> (name: String, record: Range<Int>)? {
        let prefix = #"{"collection":""#.utf8
        let middle = #"","record":"#.utf8
        guard bytes.count > prefix.count + middle.count + 2, bytes.starts(with: prefix), bytes.last == 0x7D else { return nil }
        var end = prefix.count
        while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C { end += 1 }
        let recordStart = end + middle.count
        guard end < bytes.count, bytes[end] == 0x22, recordStart < bytes.count - 1,
              bytes[end..<recordStart].elementsEqual(middle), bytes[recordStart] == 0x7B else { return nil }
        return (String(decoding: bytes[prefix.count..<end], as: UTF8.self), recordStart..<(bytes.count - 1))
    }

    /// The general path of ``splitRecordLine(_:line:)``: a full JSON parse.
    static func splitRecordLineParsing(_ bytes: [UInt8], line: Int) throws -> (String, ArraySlice<UInt8>) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            let why = bytes.withUnsafeBytes { JSONFieldDiagnosis.badByte(in: $0, startingAt: 0, within: "record") }
            throw TransferError(line: line, reason: "the line is not valid JSON\(why.map { ": " + $0 } ?? "")")
        }
        guard let dictionary = object as? [String: Any] else {
            throw TransferError(line: line, reason: "the line is not a JSON object; expected {\"collection\":…,\"record\":{…}}")
        }
        guard let collection = dictionary["collection"] as? String else {
            throw TransferError(line: line, reason: "the line has no string field 'collection'")
        }
        guard let record = dictionary["record"], record is [String: Any] else {
            throw TransferError(line: line, reason: "the line has no object field 'record'")
        }
        let extra = Set(dictionary.keys).subtracting(["collection", "record"])
        guard extra.isEmpty else {
            throw TransferError(line: line, reason: "unexpected field(s) \(extra.sorted().joined(separator: ", ")) beside 'collection' and 'record'")
        }
        return (collection, ArraySlice(try JSONSerialization.data(withJSONObject: record, options: [.fragmentsAllowed])))
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "" : " at '\(p)'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field '\(key.stringValue)'\(path(context))"
        case .typeMismatch(let type, let context): return "wrong type\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context): return "null\(path(context)) where \(type) is required"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
