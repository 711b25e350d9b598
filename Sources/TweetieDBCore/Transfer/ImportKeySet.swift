/// The primary keys an import has written so far, per collection: how it finds a key that
/// appears twice in one file.
///
/// Why: an import remembers every key it wrote until it commits, so this set is the import's
/// largest structure after LMDB's own dirty pages. A key of up to 8 bytes (every integer and
/// most compound keys) is kept as one `UInt64` — exact, not a hash: keys of up to 7 bytes are
/// packed with their length, 8-byte keys go to a set of their own — and only longer keys are kept
/// as arrays. One `Set<[UInt8]>` held 70–80 bytes and an allocation per key.
///
/// ```swift
/// var seen = ImportKeySet()
/// if !seen.insert(primaryKey, into: descriptor) { throw duplicate }
/// ```
struct ImportKeySet {
    private struct Keys {
        let descriptor: CollectionDescriptor
        /// Keys of 0–7 bytes: the bytes big-endian in the high 7 bytes, the length in the low one.
        var packed: Set<UInt64> = []
        var eightBytes: Set<UInt64> = []
        var longer: Set<[UInt8]> = []
    }

    /// One entry per collection met so far (an export has a handful: a linear search beats hashing
    /// the collection's name for every record).
    private var collections: [Keys] = []

    /// How many keys the set holds.
    var count: Int { collections.reduce(0) { $0 + $1.packed.count + $1.eightBytes.count + $1.longer.count } }

    /// Adds `key` for `descriptor`'s collection; returns `false` when it was already there.
    mutating func insert(_ key: [UInt8], into descriptor: CollectionDescriptor) -> Bool {
        let slot: Int
        if let found = collections.firstIndex(where: { $0.descriptor === descriptor }) {
            slot = found
        } else {
            collections.append(Keys(descriptor: descriptor))
            slot = collections.count - 1
        }
        if key.count > 8 {
            return collections[slot].longer.insert(key).inserted
        }
        var value: UInt64 = 0
        for byte in key { value = value << 8 | UInt64(byte) }
        if key.count == 8 {
            return collections[slot].eightBytes.insert(value).inserted
        }
        return collections[slot].packed.insert(value << (64 - 8 * UInt64(key.count)) | UInt64(key.count)).inserted
    }
}
