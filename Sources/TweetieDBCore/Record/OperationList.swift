/// Operations on keys, stored flat: the keys back to back in one byte array, so recording a
/// bulk write allocates nothing per key.
@usableFromInline
struct OperationList: Sendable {
    /// The keys' bytes, back to back.
    @usableFromInline var bytes: [UInt8] = []
    /// Where each key ends in `bytes`.
    @usableFromInline var ends: [Int] = []
    /// Each key's operation (0 insert, 1 modify, 2 delete) or, resolved, its ``ChangeKind`` raw value.
    @usableFromInline var kinds: [UInt8] = []

    @inlinable init() {}

    @inlinable var count: Int { kinds.count }

    @inlinable @inline(__always)
    mutating func append(_ key: [UInt8], kind: UInt8) {
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        kinds.append(kind)
    }

    /// Appends a key in place.
    @inlinable @inline(__always)
    mutating func append(raw key: UnsafeRawBufferPointer, kind: UInt8) {
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        kinds.append(kind)
    }

    /// Appends key `position` of `other`.
    mutating func append(_ other: OperationList, key position: Int, kind: UInt8) {
        bytes.append(contentsOf: other.bytes[other.keyRange(position)])
        ends.append(bytes.count)
        kinds.append(kind)
    }

    mutating func reserve(keys: Int, bytes count: Int) {
        bytes.reserveCapacity(count)
        ends.reserveCapacity(keys)
        kinds.reserveCapacity(keys)
    }

    /// The range of key `position` in `bytes`.
    @inline(__always)
    func keyRange(_ position: Int) -> Range<Int> {
        (position == 0 ? 0 : ends[position - 1])..<ends[position]
    }

    /// Key `position` as an array.
    func key(_ position: Int) -> [UInt8] { Array(bytes[keyRange(position)]) }

    /// Compares keys `a` and `b` bytewise (LMDB's order): negative, zero or positive.
    @inline(__always)
    func compareKeys(_ a: Int, _ b: Int) -> Int {
        let first = keyRange(a), second = keyRange(b)
        return bytes.withUnsafeBytes { raw in
            compareBytes(UnsafeRawBufferPointer(rebasing: raw[first]), UnsafeRawBufferPointer(rebasing: raw[second]))
        }
    }

    /// The entries as (key, kind) pairs; the kinds must be resolved.
    func pairs() -> [(key: [UInt8], kind: ChangeKind)] {
        (0..<count).map { (key($0), ChangeKind(rawValue: kinds[$0])!) }
    }
}
