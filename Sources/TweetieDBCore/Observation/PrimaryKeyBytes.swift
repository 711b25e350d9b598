/// A record's encoded primary key as a dictionary key, hashed and compared as one run of bytes.
///
/// ``LiveQueryCore`` keeps a dictionary from primary key to results key, and a windowed
/// observation one from primary key to row change; both are generic in their value (the
/// observation's key or record type), so Swift cannot specialize them. With
/// `[UInt8]` as its key, every probe went through `Array`'s generic `Hashable` conformance: the
/// bytes hashed one at a time through a witness table, and each equality check a generic
/// element-by-element walk: most of the time an observation's initial results took beyond the
/// fetch of the same records (docs/benchmark-findings.md, "Observation and changesets"). This wrapper's
/// hash and equality are specialized, whatever context calls them.
///
/// A key of up to 16 bytes (an integer key is 8) is held in two words, not in an array: an
/// observation's start keeps one per row, and a million small arrays were a million allocations
/// and a pointer to follow on every probe.
///
/// ```swift
/// var keys: [PrimaryKeyBytes: EncodedKey] = [:]
/// keys[PrimaryKeyBytes(primaryKey)] = sortKey
/// ```
@usableFromInline
struct PrimaryKeyBytes: Hashable, Sendable {
    /// The key's first eight bytes (zeros after its end), in memory order.
    @usableFromInline let head: UInt64
    /// Its bytes 8 to 15 (zeros after its end).
    @usableFromInline let tail: UInt64
    @usableFromInline let count: Int
    /// Every byte of a key longer than 16 bytes; `nil` for a shorter one.
    @usableFromInline let long: [UInt8]?

    @inlinable
    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        if bytes.count > 16 {
            (head, tail, long) = (0, 0, Array(bytes))
            return
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        (head, tail, long) = (words.0, words.1, nil)
    }

    @inlinable
    init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { PrimaryKeyBytes($0) }
    }

    /// The key's bytes, as the records B-tree stores them.
    @inlinable
    var bytes: [UInt8] {
        if let long { return long }
        let words = (head, tail)
        return withUnsafeBytes(of: words) { Array($0.prefix(count)) }
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        if let long {
            long.withUnsafeBytes { hasher.combine(bytes: $0) }
        } else {
            hasher.combine(head)
            hasher.combine(tail)
            hasher.combine(count)
        }
    }

    @inlinable
    static func == (lhs: PrimaryKeyBytes, rhs: PrimaryKeyBytes) -> Bool {
        lhs.head == rhs.head && lhs.tail == rhs.tail && lhs.count == rhs.count && lhs.long == rhs.long
    }
}
