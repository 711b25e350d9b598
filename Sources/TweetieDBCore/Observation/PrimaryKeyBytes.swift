/// A record's encoded primary key as a dictionary key, hashed and compared as one run of bytes.
///
/// ``LiveQueryCore`` keeps a dictionary from primary key to results key, and a windowed
/// observation one from primary key to row change; both are generic in their value (the
/// observation's key or record type), so Swift cannot specialize them. With
/// `[UInt8]` as its key, every probe went through `Array`'s generic `Hashable` conformance: the
/// bytes hashed one at a time through a witness table, and each equality check a generic
/// element-by-element walk: most of the time an observation's initial results took beyond the
/// fetch of the same records (BENCHMARKS.md, "An observation's initial results"). This wrapper's
/// hash is one `Hasher.combine(bytes:)` and its equality a specialized byte comparison, whatever
/// context calls them.
///
/// ```swift
/// var keys: [PrimaryKeyBytes: EncodedKey] = [:]
/// keys[PrimaryKeyBytes(primaryKey)] = sortKey
/// ```
@usableFromInline
struct PrimaryKeyBytes: Hashable, Sendable {
    /// The key's bytes, as the records B-tree stores them.
    @usableFromInline let bytes: [UInt8]

    @inlinable
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    @inlinable
    static func == (lhs: PrimaryKeyBytes, rhs: PrimaryKeyBytes) -> Bool {
        lhs.bytes == rhs.bytes
    }
}
