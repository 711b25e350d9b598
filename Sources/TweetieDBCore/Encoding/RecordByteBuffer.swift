import Foundation

/// A growable byte buffer for ``RecordWriter``: plain pointer writes, no per-append uniqueness or
/// capacity checks of `Array`, and reusable across records (the store encodes every record of a
/// transaction into one buffer and hands LMDB a pointer into it).
///
/// Its properties opt out of dynamic exclusivity checks: a buffer belongs to one writer (one
/// `RecordWriter`, or one write transaction's thread), and the checks cost more than the writes.
///
/// ```swift
/// // Internal: RecordWriter(reusing: buffer) starts a record in `buffer`.
/// ```
@usableFromInline
final class RecordByteBuffer {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) @usableFromInline var count = 0

    @usableFromInline
    init(capacity: Int) {
        self.capacity = Swift.max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far; valid until the next write or reset.
    @inlinable
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity {
            grow(toAtLeast: count + extra)
        }
    }

    @usableFromInline
    func grow(toAtLeast needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed {
            newCapacity *= 2
        }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inlinable @inline(__always)
    func append(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, source.count > 0 else {
            return
        }
        reserve(source.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: source.count)
        count += source.count
    }

    /// An unsigned LEB128 varint, as `Array.appendVarint` writes it.
    @inlinable @inline(__always)
    func appendVarint(_ value: UInt64) {
        reserve(10)
        var rest = value
        while rest >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: rest) | 0x80
            count += 1
            rest >>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: rest)
        count += 1
    }

    /// Eight bytes, little-endian.
    @inlinable @inline(__always)
    func appendLittleEndian(_ value: UInt64) {
        reserve(8)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value.littleEndian, as: UInt64.self)
        count += 8
    }

    /// A varint length, then the UTF-8 bytes of `string`.
    @inlinable @inline(__always)
    func appendLengthPrefixedUTF8(_ string: String) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendVarint(UInt64(utf8.count))
            append(UnsafeRawBufferPointer(utf8))
        }
        if done == nil {
            appendLengthPrefixedUTF8Slow(string)
        }
    }

    @usableFromInline
    func appendLengthPrefixedUTF8Slow(_ string: String) {
        var copy = string
        copy.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            append(UnsafeRawBufferPointer(utf8))
        }
    }
}
