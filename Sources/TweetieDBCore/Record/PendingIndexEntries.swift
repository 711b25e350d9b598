/// The entries of one non-unique index that a batch write collects, to write them in key order
/// when the batch ends.
///
/// A batch's records arrive in their own order — tweets by id, say — and their index entries in
/// no useful one: a `created` index stored newest first receives every key before the previous
/// one, an `author` index hops between authors. Put one by one, each such key costs a search of
/// the index from its root and splits pages in half. Written in ascending order instead, each
/// key lands beside the previous one on the page LMDB's cursor is already on, or is appended
/// after the index's last key (see ``TransactionContext/appendIfLast(_:dbi:key:value:)``).
///
/// Only non-unique indexes are deferred: their keys end with the primary key, so two entries
/// never collide and writing them later cannot fail on a constraint. Unique indexes are checked
/// and written with their record. The entry's value, the primary key, is the end of its key, so
/// only the key is kept.
///
/// `@unchecked Sendable`: one thread at a time uses it, the write transaction's, or a helper
/// sorting it (``sortIntoKeyOrder()``) while the transaction's thread waits before it touches it
/// again.
///
/// ```swift
/// let pending = PendingIndexEntries()
/// pending.append(key: entryKey, primaryKeyCount: 8)
/// try pending.forEachInKeyOrder { key, value in try tx.putAppending(rawKey: key, rawValue: value, in: index) }
/// ```
@usableFromInline
final class PendingIndexEntries: @unchecked Sendable {
    /// One entry: where its key lies in ``keys``, how many of its last bytes are the primary
    /// key (the entry's value), and its key's first 16 bytes as two
    /// big-endian integers, so that most comparisons while sorting touch no other memory.
    @usableFromInline
    struct Entry {
        @usableFromInline var head: UInt64
        @usableFromInline var next: UInt64
        @usableFromInline var offset: UInt32
        @usableFromInline var keyCount: UInt16
        @usableFromInline var valueCount: UInt16

        @inlinable
        init(head: UInt64, next: UInt64, offset: UInt32, keyCount: UInt16, valueCount: UInt16) {
            self.head = head
            self.next = next
            self.offset = offset
            self.keyCount = keyCount
            self.valueCount = valueCount
        }

        /// The entry's key in `raw`.
        @inline(__always)
        func key(in raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: raw[Int(offset)..<(Int(offset) + Int(keyCount))])
        }

        /// The entry's key in `raw`, and its value: the key's last `valueCount` bytes.
        @inline(__always)
        func keyAndValue(in raw: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, UnsafeRawBufferPointer) {
            let key = key(in: raw)
            return (key, UnsafeRawBufferPointer(rebasing: key[(key.count - Int(valueCount))...]))
        }
    }

    /// The entries' keys back to back. (A raw buffer: appending to an array cost more than the
    /// copy itself, 200,000 times a batch.)
    @usableFromInline let keys = RecordByteBuffer(capacity: 4096)
    @exclusivity(unchecked) @usableFromInline var entries: [Entry] = []
    /// The entries' order as far as it is known: `nil` until ``needsSort()`` or
    /// ``sortIntoKeyOrder()`` looked, `.unordered` until sorted, then `.ascending` (or
    /// `.descending`: walked backwards).
    @exclusivity(unchecked) var knownOrder: Order?
    /// How many entries the current batch expects (see ``expect(_:)``).
    @exclusivity(unchecked) @usableFromInline var expected = 0

    /// How many entries make a sort worth a helper thread (see
    /// ``StoreWriter/writePendingIndexEntries(descriptor:)``): sorting 16,384 tweet-sized
    /// entries takes about a millisecond and a half, starting a thread tens of microseconds.
    static let sideSortMinimum = 16_384

    @usableFromInline init() {}

    /// Tells how many entries a batch is about to add, so that the first one sizes the buffers
    /// for all of them (by its own size) instead of letting them double and copy as they fill.
    @usableFromInline
    func expect(_ more: Int) {
        expected = more
        entries.reserveCapacity(entries.count + more)
    }

    /// Whether no entry is waiting.
    @inlinable var isEmpty: Bool { entries.isEmpty }

    /// How many entries are waiting.
    @inlinable var entryCount: Int { entries.count }

    /// Adds an entry: `key` (at most 511 bytes, as LMDB requires) ends with the primary key,
    /// `primaryKeyCount` bytes, which is the entry's value.
    @inlinable
    func append(key: UnsafeRawBufferPointer, primaryKeyCount: Int) {
        let offset = UInt32(truncatingIfNeeded: keys.count)
        if keys.count == 0 {
            // The first entry of a batch sizes the buffer for the entries expected (a quarter
            // more, for longer keys).
            keys.reserve(expected * (key.count + key.count / 4))
        }
        keys.append(key)
        let (head, next) = Self.prefix(key)
        entries.append(Entry(head: head, next: next, offset: offset, keyCount: UInt16(truncatingIfNeeded: key.count),
                             valueCount: UInt16(truncatingIfNeeded: primaryKeyCount)))
    }

    /// The first 16 bytes of `key` as two big-endian integers, zero-padded: comparing them
    /// orders keys as `memcmp` does, except that a key and its zero-padded extension tie.
    @inlinable
    static func prefix(_ key: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        if key.count >= 16 {
            return (UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)),
                    UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
        var padded: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &padded) { $0.copyMemory(from: key) }
        return (UInt64(bigEndian: padded.0), UInt64(bigEndian: padded.1))
    }

    /// Puts the entries in ascending key order (LMDB's), unless they already ascend or descend,
    /// and remembers which: ``forEachInKeyOrder(_:)`` then only walks them. Touches nothing but
    /// this object, so a batch may run it on another thread while its transaction's thread
    /// writes another index's entries (see ``StoreWriter/writePendingIndexEntries(descriptor:)``).
    ///
    /// Entries already in ascending or descending order (a batch in id order, for an index on a
    /// value that grows with the id) are not sorted, just walked forwards or backwards.
    func sortIntoKeyOrder() {
        guard needsSort() else { return }
        let raw = keys.bytes
        entries.sort { Self.compare($0, $1, in: raw) < 0 }
        knownOrder = .ascending
    }

    /// Whether the entries need a sort (neither ascending nor descending); the one pass that
    /// finds out is made once per batch, whoever asks first.
    func needsSort() -> Bool {
        if knownOrder == nil { knownOrder = Self.order(of: entries, in: keys.bytes) }
        return knownOrder == .unordered
    }

    /// Calls `body` with every entry's key and value in ascending key order (LMDB's), sorting
    /// them first if ``sortIntoKeyOrder()`` has not, then forgets them all, whether or not `body`
    /// throws.
    func forEachInKeyOrder(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows {
        defer { discard() }
        guard !entries.isEmpty else { return }
        sortIntoKeyOrder()
        let raw = keys.bytes
        func visit(_ entry: Entry) throws {
            let (key, value) = entry.keyAndValue(in: raw)
            try body(key, value)
        }
        if knownOrder == .descending {
            for entry in entries.reversed() { try visit(entry) }
        } else {
            for entry in entries { try visit(entry) }
        }
    }

    /// Forgets every entry (keeping the buffers for the next batch).
    func discard() {
        knownOrder = nil
        keys.count = 0
        expected = 0
        entries.removeAll(keepingCapacity: true)
    }

    enum Order { case ascending, descending, unordered }

    /// Whether `entries` already ascend or descend (one pass, stopping at the first sign of neither).
    static func order(of entries: [Entry], in raw: UnsafeRawBufferPointer) -> Order {
        guard entries.count > 1 else { return .ascending }
        var ascending = true, descending = true
        for position in 1..<entries.count {
            let c = compare(entries[position - 1], entries[position], in: raw)
            if c > 0 { ascending = false } else { descending = false }
            if !ascending && !descending { return .unordered }
        }
        return ascending ? .ascending : .descending
    }

    /// Compares the keys of two entries as `memcmp` would (then shorter first).
    @inline(__always)
    static func compare(_ a: Entry, _ b: Entry, in raw: UnsafeRawBufferPointer) -> Int {
        if a.head != b.head { return a.head < b.head ? -1 : 1 }
        if a.next != b.next { return a.next < b.next ? -1 : 1 }
        return compareBytes(a.key(in: raw), b.key(in: raw))
    }
}
