
/// The change log's storage: entries keyed by big-endian sequence number in the `_changes`
/// database, written in the same transaction as the records they describe.
enum ChangeLog {
    static let lastSequenceKey = Array("changes/last".utf8)
    /// The entry format written: 2, a commit id after the version byte. Format 1 (no commit id) is
    /// still read.
    static let formatVersion: UInt8 = 2

    static func key(_ sequence: UInt64) -> [UInt8] {
        withUnsafeBytes(of: sequence.bigEndian) { Array($0) }
    }

    static func sequence(from key: UnsafeRawBufferPointer) -> UInt64 {
        guard key.count == 8 else { return 0 }
        return UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
    }

    static func lastSequence(in tx: some ReadableTransaction, meta: Database) throws -> UInt64 {
        try tx.withValue(for: lastSequenceKey, in: meta) { sequence(from: $0) } ?? 0
    }

    /// How many entries pruning removes at once for a retention bound: 1/64 of it (156 for the
    /// default 10,000), at least 1. Deleting the oldest entry on every commit would rewrite the
    /// log's leftmost leaf and its branch page in every transaction: two more pages per commit
    /// that LMDB can reuse only once every reader has moved past that commit. In batches, those
    /// pages are rewritten once per batch, and the log holds `retention` to
    /// `retention + batch - 1` entries.
    static func pruneBatch(retention: Int) -> UInt64 { UInt64(max(1, retention / 64)) }

    /// Appends `changes` as the next entry and prunes entries beyond `retention` (in batches of
    /// ``pruneBatch(retention:)``); returns the new sequence number, or `nil` when there was
    /// nothing to log.
    static func append(_ changes: TransactionChanges, maxListed: Int, retention: Int,
                       in tx: WriteTransaction, log: Database, meta: Database) throws -> UInt64? {
        let net = changes.resolvedLists()
        guard !net.isEmpty else { return nil }
        let sequence = try lastSequence(in: tx, meta: meta) + 1
        // A body that runs again draws another id: only the committed run's is ever seen.
        try tx.put(key(sequence), encode(net, maxListed: maxListed, commitID: UInt64.random(in: .min ... .max)), in: log)
        try tx.put(lastSequenceKey, key(sequence), in: meta)
        // Prune every entry at or below the cutoff, on every batch-th commit; each prune deletes
        // one batch in steady state (at most 1024 entries per commit after the bound was lowered).
        if sequence > UInt64(retention) {
            let cutoff = sequence - UInt64(retention)
            guard cutoff % pruneBatch(retention: retention) == 0 else { return sequence }
            let cursor = try tx.cursor(on: log)
            defer { cursor.close() }
            var pruned = 0
            while pruned < 1024, let (k, _) = try cursor.first(), ChangeLog.sequence(from: k) <= cutoff {
                try cursor.deleteCurrent()
                pruned += 1
            }
        }
        return sequence
    }

    /// Encodes the net changes of one transaction (keys in no particular order: observers treat
    /// them as a set).
    static func encode(_ net: [(collection: String, changes: OperationList)], maxListed: Int, commitID: UInt64) -> [UInt8] {
        var out: [UInt8] = [formatVersion]
        withUnsafeBytes(of: commitID.bigEndian) { out.append(contentsOf: $0) }
        let sorted = net.sorted { $0.collection < $1.collection }
        let total = net.reduce(0) { $0 + $1.changes.count }
        let keyBytes = net.reduce(0) { $0 + $1.changes.bytes.count }
        out.reserveCapacity(total <= maxListed ? 16 + total * 2 + keyBytes + sorted.count * 32 : 64)
        out.appendVarint(UInt64(sorted.count))
        for (name, entries) in sorted {
            out.appendVarint(UInt64(name.utf8.count))
            out.append(contentsOf: name.utf8)
            if total > maxListed {
                out.append(1) // unlisted: too many changes to list
                continue
            }
            out.append(0)
            out.appendVarint(UInt64(entries.count))
            entries.bytes.withUnsafeBufferPointer { bytes in
                for position in 0..<entries.count {
                    let range = entries.keyRange(position)
                    out.append(entries.kinds[position])
                    out.appendVarint(UInt64(range.count))
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                }
            }
        }
        return out
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, sequence: UInt64) throws -> ChangeLogEntry {
        var reader = ByteReader(bytes)
        func corrupt(_ why: String) -> StoreError {
            StoreError(.corrupted, operation: "read change log", database: "_changes",
                          message: "change log entry \(sequence) is corrupt at byte \(reader.offset): \(why)")
        }
        // The header (version, commit id) is read by the one function that reads it for positions.
        let commitID = try Self.commitID(in: bytes, sequence: sequence)
        _ = reader.bytes(commitID == nil ? 1 : 9)
        guard let count = reader.varint() else { throw corrupt("truncated collection count") }
        var entry = ChangeLogEntry(sequence: sequence, unlistedCollections: [], changes: [:], commitID: commitID)
        for _ in 0..<count {
            guard let nameLength = reader.varint(), let name = reader.string(Int(nameLength)) else { throw corrupt("truncated collection name") }
            guard let unlisted = reader.byte() else { throw corrupt("truncated flags") }
            if unlisted == 1 {
                entry.unlistedCollections.insert(name)
                continue
            }
            guard let keyCount = reader.varint(), keyCount <= UInt64(bytes.count) else { throw corrupt("bad key count") }
            var list: [(key: [UInt8], kind: ChangeKind)] = []
            list.reserveCapacity(Int(keyCount))
            for _ in 0..<keyCount {
                guard let rawKind = reader.byte(), let kind = ChangeKind(rawValue: rawKind) else { throw corrupt("bad change kind") }
                guard let keyLength = reader.varint(), let key = reader.bytes(Int(keyLength)) else { throw corrupt("truncated key") }
                list.append((key, kind))
            }
            entry.changes[name] = list
        }
        return entry
    }

    /// The commit id stored in an entry's bytes (`nil` for format 1), without decoding its changes.
    static func commitID(in bytes: UnsafeRawBufferPointer, sequence: UInt64) throws -> UInt64? {
        guard let version = bytes.first, version == 1 || version == formatVersion else {
            throw StoreError(.corrupted, operation: "read change log", database: "_changes",
                             message: "change log entry \(sequence) is corrupt at byte 0: unknown entry format")
        }
        guard version >= 2 else { return nil }
        guard bytes.count >= 9 else {
            throw StoreError(.corrupted, operation: "read change log", database: "_changes",
                             message: "change log entry \(sequence) is corrupt at byte 1: truncated commit id")
        }
        return bytes[1..<9].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The position of the entry at `sequence` (``ChangeLogPosition/origin`` for 0), or `nil` when
    /// the log does not hold it (pruned, or never written in this history).
    static func position(at sequence: UInt64, in tx: some ReadableTransaction, log: Database) throws -> ChangeLogPosition? {
        guard sequence > 0 else { return .origin }
        return try tx.withValue(for: key(sequence), in: log) { bytes in
            ChangeLogPosition(sequence: sequence, commitID: try commitID(in: bytes, sequence: sequence))
        }
    }

    /// The position of the last entry in the snapshot of `tx`.
    static func lastPosition(in tx: some ReadableTransaction, log: Database, meta: Database) throws -> ChangeLogPosition {
        let last = try lastSequence(in: tx, meta: meta)
        return try position(at: last, in: tx, log: log) ?? ChangeLogPosition(sequence: last, commitID: nil)
    }

    /// Reads the entries after `sequence`, in the snapshot of `tx`.
    static func read(after sequence: UInt64, in tx: some ReadableTransaction, log: Database, meta: Database) throws -> ChangeLogSlice {
        let last = try lastSequence(in: tx, meta: meta)
        guard last > sequence else {
            return ChangeLogSlice(entries: [], lastSequence: last, isTruncated: false,
                                  lastPosition: try lastPosition(in: tx, log: log, meta: meta))
        }
        var entries: [ChangeLogEntry] = []
        var first: UInt64?
        try tx.forEach(in: log, range: KeyRange(lowerBound: key(sequence + 1), upperBoundExclusive: nil)) { k, v in
            let s = ChangeLog.sequence(from: k)
            if first == nil { first = s }
            entries.append(try decode(v, sequence: s))
            return true
        }
        let truncated = (first ?? last + 1) != sequence + 1
        let lastPosition = entries.last.map { $0.sequence == last ? $0.position : nil } ?? nil
        return ChangeLogSlice(entries: entries, lastSequence: last, isTruncated: truncated,
                              lastPosition: try lastPosition ?? self.lastPosition(in: tx, log: log, meta: meta))
    }

    /// The first and last sequence numbers held in the log (nil when empty).
    static func range(in tx: some ReadableTransaction, log: Database) throws -> ClosedRange<UInt64>? {
        let cursor = try tx.cursor(on: log)
        defer { cursor.close() }
        guard let (firstKey, _) = try cursor.first() else { return nil }
        let first = sequence(from: firstKey)
        guard let (lastKey, _) = try cursor.last() else { return nil }
        return first...sequence(from: lastKey)
    }
}
