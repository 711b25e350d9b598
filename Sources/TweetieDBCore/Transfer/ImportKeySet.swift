/// The primary keys an import has written so far, per collection: how it finds a key that
/// appears twice in one file.
///
/// Why: an import remembers every key it wrote until it commits, so this set is the import's
/// largest structure after LMDB's own dirty pages. A key of up to 8 bytes (every integer and
/// most compound keys) is kept as one `UInt64` — exact, not a hash: keys of up to 7 bytes are
/// packed with their length, 8-byte keys go to a set of their own — and only longer keys are kept
/// as arrays. One `Set<[UInt8]>` held 70–80 bytes and an allocation per key.
///
/// An export lists each collection's records in key order, so the keys of 0–8 bytes that arrive in
/// ascending order are appended to a sorted array (``AscendingRun``) — 8 bytes a key, no hashing —
/// and only those that arrive out of order go to a hash set. A key above the run's last one can be
/// in neither: every key in the set was below the run's last key when it came.
///
/// ```swift
/// var seen = ImportKeySet()
/// if !seen.insert(primaryKey, into: descriptor) { throw duplicate }
/// ```
struct ImportKeySet {
    private struct Keys {
        let descriptor: CollectionDescriptor
        /// Keys of 0–7 bytes: the bytes big-endian in the high 7 bytes, the length in the low one.
        var packed = AscendingRun()
        var eightBytes = AscendingRun()
        var longer: Set<[UInt8]> = []
    }

    /// Values that arrived in ascending order, in an array, and the others in a hash set.
    struct AscendingRun {
        /// Ascending values, in arrival order.
        private(set) var run: [UInt64] = []
        /// Values that were at most `run.last` when they arrived and were not in `run`.
        private(set) var others: Set<UInt64> = []

        var count: Int { run.count + others.count }

        /// Adds `value`; returns `false` when it was already there.
        mutating func insert(_ value: UInt64) -> Bool {
            guard let last = run.last, value <= last else {
                run.append(value)
                return true
            }
            // Binary search of the run: the first index whose value is not below `value`.
            var low = 0, high = run.count
            while low < high {
                let middle = (low + high) / 2
                if run[middle] < value { low = middle + 1 } else { high = middle }
            }
            if run[low] == value { return false }
            return others.insert(value).inserted
        }
    }

    /// One entry per collection met so far (an export has a handful: a linear search beats hashing
    /// the collection's name for every record).
    private var collections: [Keys] = []

    /// How many keys the set holds.
    var count: Int { collections.reduce(0) { $0 + $1.packed.count + $1.eightBytes.count + $1.longer.count } }

    /// Adds `key` for `descriptor`'s collection; returns `false` when it was already there.
    mutating func insert(_ key: UnsafeRawBufferPointer, into descriptor: CollectionDescriptor) -> Bool {
        let slot: Int
        if let found = collections.firstIndex(where: { $0.descriptor === descriptor }) {
            slot = found
        } else {
            collections.append(Keys(descriptor: descriptor))
            slot = collections.count - 1
        }
        if key.count > 8 {
            return collections[slot].longer.insert(Array(key)).inserted
        }
        var value: UInt64 = 0
        for byte in key { value = value << 8 | UInt64(byte) }
        if key.count == 8 {
            return collections[slot].eightBytes.insert(value)
        }
        return collections[slot].packed.insert(value << (64 - 8 * UInt64(key.count)) | UInt64(key.count))
    }
}
