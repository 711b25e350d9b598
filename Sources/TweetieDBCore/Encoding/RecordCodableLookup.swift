import Synchronization

/// Answers "does `T` adopt ``RecordCodable``?" for ``RecordEncoder`` and ``RecordDecoder``
/// with one runtime conformance lookup per type (a plain `T.self as? any RecordCodable.Type`
/// costs about 70 ns on every call; a cache hit costs a few).
///
/// Each type gets one immortal ``Entry`` (kept in `entries`, under a mutex). A small
/// direct-mapped table of atomic slots points at recently used entries, so the hot path is an
/// acquire load and a compare, without locking. Entries are never freed, so a slot read
/// concurrently with its replacement still points at a valid entry.
enum RecordCodableLookup {
    /// The answer for one type.
    final class Entry: @unchecked Sendable {
        let key: ObjectIdentifier
        /// The type as ``RecordCodable``, or `nil` when it does not adopt it.
        let fast: (any RecordCodable.Type)?

        init(key: ObjectIdentifier, fast: (any RecordCodable.Type)?) {
            self.key = key
            self.fast = fast
        }
    }

    static let slotCount = 16
    /// Slot `i` holds an `Entry` address (unretained: `entries` owns it) or 0.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: slotCount)
        for index in 0..<slotCount {
            (slots + index).initialize(to: Atomic(0))
        }
        return slots
    }()
    /// Every entry ever created, by type.
    static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// `type` as ``RecordCodable``, or `nil` when it does not adopt it.
    @inline(__always)
    static func fastType<T>(_ type: T.Type) -> (any RecordCodable.Type)? {
        let key = ObjectIdentifier(type)
        let index = Int(truncatingIfNeeded: UInt(bitPattern: key) >> 4) & (slotCount - 1)
        let address = slots[index].load(ordering: .acquiring)
        if address != 0 {
            let entry = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
            if entry.key == key {
                return entry.fast
            }
        }
        return slowFastType(type, key: key, slot: index)
    }

    private static func slowFastType<T>(_ type: T.Type, key: ObjectIdentifier, slot: Int) -> (any RecordCodable.Type)? {
        let entry = entries.withLock { entries in
            if let entry = entries[key] {
                return entry
            }
            let entry = Entry(key: key, fast: T.self as? any RecordCodable.Type)
            entries[key] = entry
            return entry
        }
        slots[slot].store(Int(bitPattern: Unmanaged.passUnretained(entry).toOpaque()), ordering: .releasing)
        return entry.fast
    }
}
