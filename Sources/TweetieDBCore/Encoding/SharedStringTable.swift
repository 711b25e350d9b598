import Foundation

/// Lets the records decoded in one scan share the storage of equal strings: a URL, a display
/// name or a list name that thousands of records repeat is allocated once instead of once per
/// record.
///
/// A fetch or `forEach` creates one table per scan and hands it to each record's
/// ``RecordCodable/init(from:)``, where ``RecordField/decodeShared(_:)-(String.Type)`` uses it.
/// A string value shorter than 16 bytes is stored inside the `String` itself and never
/// shared; longer ones are looked up by their bytes in a fixed number of slots, so the table
/// never grows: a value that misses its slot is decoded as usual and takes the slot.
/// Sharing is invisible to callers (`String` and `Array` are values); it saves the allocation,
/// the UTF-8 validation and the memory of each repeated value. A table is not thread-safe: use
/// it from one thread at a time, for one batch of records (it is not `Sendable`).
///
/// ```swift
/// let strings = SharedStringTable()
/// let tweet = try RecordDecoder().decode(record: Tweet.self, from: bytes, sharing: strings)
/// ```
public final class SharedStringTable {
    /// Strings of at least this many UTF-8 bytes are shared; shorter ones are stored inline.
    @usableFromInline static let minimumLength = 16
    /// Strings longer than this are decoded without a lookup: long text rarely repeats.
    @usableFromInline static let maximumLength = 512
    @usableFromInline static let slotCount = 1024

    // Raw slots rather than arrays: no uniqueness checks, no exclusivity checks per lookup.
    // Allocated on first use, so a scan that shares nothing pays nothing.
    @usableFromInline @exclusivity(unchecked) var stringHashes: UnsafeMutablePointer<UInt64>?
    @usableFromInline @exclusivity(unchecked) var strings: UnsafeMutablePointer<String>?
    @usableFromInline @exclusivity(unchecked) var listBytes: UnsafeMutablePointer<[UInt8]>?
    @usableFromInline @exclusivity(unchecked) var lists: UnsafeMutablePointer<[String]>?

    /// Creates an empty table; its slots are allocated on first use.
    ///
    /// ```swift
    /// let strings = SharedStringTable()
    /// ```
    public init() {}

    deinit {
        if let stringHashes, let strings {
            stringHashes.deallocate()
            strings.deinitialize(count: Self.slotCount)
            strings.deallocate()
        }
        if let listBytes, let lists {
            listBytes.deinitialize(count: Self.listSlotCount)
            listBytes.deallocate()
            lists.deinitialize(count: Self.listSlotCount)
            lists.deallocate()
        }
    }

    @usableFromInline static var listSlotCount: Int { slotCount / 4 }

    /// The string for the UTF-8 `bytes`: the one already in the table when an equal one was
    /// decoded before, otherwise `make()`'s, which then takes the slot.
    @inlinable
    func string(_ bytes: UnsafeRawBufferPointer, make: () throws -> String) rethrows -> String {
        let hashes: UnsafeMutablePointer<UInt64>, values: UnsafeMutablePointer<String>
        if let stringHashes, let strings {
            hashes = stringHashes
            values = strings
        } else {
            (hashes, values) = allocateStrings()
        }
        let hash = Self.hash(bytes)
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        if hashes[slot] == hash, Self.equal(values[slot], bytes) {
            return values[slot]
        }
        let made = try make()
        hashes[slot] = hash
        values[slot] = made
        return made
    }

    @usableFromInline
    func allocateStrings() -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<String>) {
        let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.slotCount)
        hashes.initialize(repeating: 0, count: Self.slotCount)
        let values = UnsafeMutablePointer<String>.allocate(capacity: Self.slotCount)
        values.initialize(repeating: "", count: Self.slotCount)
        stringHashes = hashes
        strings = values
        return (hashes, values)
    }

    /// The string array stored as the value bytes `bytes` (tag included): the one already in
    /// the table when equal bytes were decoded before, otherwise `make()`'s.
    @inlinable
    func list(_ bytes: UnsafeRawBufferPointer, make: () throws -> [String]) rethrows -> [String] {
        let stored: UnsafeMutablePointer<[UInt8]>, values: UnsafeMutablePointer<[String]>
        if let listBytes, let lists {
            stored = listBytes
            values = lists
        } else {
            (stored, values) = allocateLists()
        }
        let slot = Int(truncatingIfNeeded: Self.hash(bytes)) & (Self.listSlotCount - 1)
        let same = stored[slot].withUnsafeBytes { known in
            known.count == bytes.count && memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if same {
            return values[slot]
        }
        let made = try make()
        stored[slot] = Array(bytes)
        values[slot] = made
        return made
    }

    @usableFromInline
    func allocateLists() -> (UnsafeMutablePointer<[UInt8]>, UnsafeMutablePointer<[String]>) {
        let stored = UnsafeMutablePointer<[UInt8]>.allocate(capacity: Self.listSlotCount)
        stored.initialize(repeating: [], count: Self.listSlotCount)
        let values = UnsafeMutablePointer<[String]>.allocate(capacity: Self.listSlotCount)
        values.initialize(repeating: [], count: Self.listSlotCount)
        listBytes = stored
        lists = values
        return (stored, values)
    }

    /// A 64-bit hash of `bytes`, never 0 (the empty slot's mark).
    @inlinable @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: bytes.count)
        guard let start = bytes.baseAddress else { return hash | 1 }
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(start.load(fromByteOffset: offset, as: UInt8.self)) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        return hash | 1
    }

    /// Whether `string`'s UTF-8 is exactly `bytes`.
    @inlinable @inline(__always)
    static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.count == bytes.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
        } ?? false
    }
}
