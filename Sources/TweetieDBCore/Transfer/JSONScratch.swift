import Foundation

/// One value's JSON while ``JSONTextEncoder`` encodes it, in flat arrays a writer reuses from
/// record to record: scalars are already text, objects and arrays are lists of entries.
///
/// Why: a tree of objects per record (a class per container, an enum per value, a `String` per
/// key) costs more than the JSON it becomes. Here nothing is allocated once the arrays have
/// grown to the size of a record; when the value is complete, ``write(into:)`` (in
/// `JSONScratch+Writing.swift`) copies the text out with each object's members in key order.
///
/// Rules: entry 0 is the value itself; an entry is a key (or an array position) and a value
/// that is unset, a range of ``text``, or a container. A container's entries are linked in the
/// order they were encoded; keys encoded twice stay twice (the writer keeps the last value, as
/// `JSONEncoder` does). Whatever the encoder cannot promise to write as `JSONEncoder` would sets
/// ``failed`` or throws ``Unsupported``, and the caller hands the value to `JSONEncoder`.
///
/// ```swift
/// let scratch = JSONScratch()
/// try scratch.encode(note, into: &line)   // {"author":"ann","id":1}
/// ```
final class JSONScratch {
    /// This value cannot be written here exactly as `JSONEncoder` writes it.
    struct Unsupported: Error {}

    /// One member of an object, one element of an array, or the whole value (entry 0).
    struct Entry {
        /// `valueEnd` of an entry whose value is not encoded yet.
        static let unset = -1
        /// `valueEnd` of an entry whose value is the container `valueStart`.
        static let container = -2

        /// Where the key's UTF-8 starts in ``keyBytes``; -1 for an array element or entry 0.
        var keyStart: Int
        /// The key's length in bytes; for an array element, its position.
        var keyCount: Int
        /// The value: `text[valueStart..<valueEnd]`, or see ``unset`` and ``container``.
        var valueStart = 0
        var valueEnd = Entry.unset
        /// The next entry of the same container, or -1.
        var next = -1
        /// The container holding this entry, or -1.
        var parent: Int
    }

    /// An object or an array: its entries, first to last in encoding order.
    struct Container {
        var isObject: Bool
        /// The entry whose value this container is, or -1 for a stand-in nobody will write.
        var owner: Int
        var first = -1
        var last = -1
        var count = 0
        /// A hash of the keys in order (see `addEntry`), to find the key order quickly.
        var keyHash: UInt64 = 0xCBF2_9CE4_8422_2325
    }

    // The encoder and its containers touch these several times per member; as stored properties
    // of a class each access would be checked for exclusivity at run time. They are only used
    // on the thread that owns the writer, one access at a time.
    @exclusivity(unchecked) var text: [UInt8] = []
    @exclusivity(unchecked) var keyBytes: [UInt8] = []
    @exclusivity(unchecked) var entries: [Entry] = []
    @exclusivity(unchecked) var containers: [Container] = []
    /// Set when a container request could not be honoured (containers cannot throw).
    @exclusivity(unchecked) var failed = false
    /// Objects' member orders, kept from record to record.
    var keyOrders = JSONKeyOrders()
    /// While writing: the members of the objects being written, innermost last.
    @exclusivity(unchecked) var members: [Int] = []
    /// Where the text is written before it is appended to the caller's bytes.
    @exclusivity(unchecked) var output: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var outputCapacity = 1024

    init() {
        output = .allocate(capacity: outputCapacity)
    }

    deinit {
        output.deallocate()
    }

    /// Appends `value`'s JSON to `out`; throws ``Unsupported`` (and appends nothing) when it
    /// cannot promise `JSONEncoder`'s bytes. Other errors are the value's own.
    func encode<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
        text.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        containers.removeAll(keepingCapacity: true)
        failed = false
        entries.append(Entry(keyStart: -1, keyCount: 0, parent: -1))
        try JSONTextEncoder.box(value, scratch: self, slot: 0)
        guard !failed else { throw Unsupported() }
        write(0, into: &out)
    }

    /// A new entry for `key` at the end of the object `container`.
    func addEntry(to container: Int, key: String) -> Int {
        let keyStart = keyBytes.count
        var key = key
        var hash = containers[container].keyHash
        key.withUTF8 { utf8 in
            keyBytes.append(contentsOf: utf8)
            // Length, first and last byte: enough to tell a collection's few key sequences
            // apart (a match is then checked byte for byte), for one multiplication per key.
            let ends = utf8.isEmpty ? 0 : UInt64(utf8[0]) << 32 | UInt64(utf8[utf8.count - 1]) << 40
            hash = (hash ^ UInt64(utf8.count) ^ ends) &* 0x100_0000_01B3
        }
        containers[container].keyHash = hash
        return link(Entry(keyStart: keyStart, keyCount: keyBytes.count - keyStart, parent: container))
    }

    /// A new element at the end of the array `container`.
    func addElement(to container: Int) -> Int {
        link(Entry(keyStart: -1, keyCount: containers[container].count, parent: container))
    }

    /// An entry in no container (for a stand-in encoder after a failure).
    func addDetachedEntry() -> Int {
        entries.append(Entry(keyStart: -1, keyCount: 0, parent: -1))
        return entries.count - 1
    }

    private func link(_ entry: Entry) -> Int {
        let index = entries.count
        entries.append(entry)
        let container = entry.parent
        let last = containers[container].last
        if last >= 0 {
            entries[last].next = index
        } else {
            containers[container].first = index
        }
        containers[container].last = index
        containers[container].count += 1
        return index
    }

    /// The container (object or array) that `slot`'s value is: created if the value is unset,
    /// the same one if it already is one of that kind; otherwise a stand-in, and ``failed``.
    func container(at slot: Int, object: Bool) -> Int {
        let entry = entries[slot]
        if entry.valueEnd == Entry.unset {
            let index = newContainer(object: object, owner: slot)
            entries[slot].valueStart = index
            entries[slot].valueEnd = Entry.container
            return index
        }
        if entry.valueEnd == Entry.container, containers[entry.valueStart].isObject == object {
            return entry.valueStart
        }
        failed = true
        return newContainer(object: object, owner: -1)
    }

    /// The object stored under `key` in the object `container` (the last entry whose key equals
    /// it as a `String`, as `JSONEncoder`'s dictionary does), created if the key has none; a
    /// stand-in, and ``failed``, when the key holds something else.
    func nestedContainer(in container: Int, key: String, object: Bool) -> Int {
        var found = -1
        var entry = containers[container].first
        while entry >= 0 {
            if key == self.key(of: entry) { found = entry }
            entry = entries[entry].next
        }
        if found >= 0 {
            let value = entries[found]
            if value.valueEnd == Entry.container, containers[value.valueStart].isObject == object {
                return value.valueStart
            }
            failed = true
            return newContainer(object: object, owner: -1)
        }
        return self.container(at: addEntry(to: container, key: key), object: object)
    }

    private func newContainer(object: Bool, owner: Int) -> Int {
        containers.append(Container(isObject: object, owner: owner))
        return containers.count - 1
    }

    /// The key of an object member.
    func key(of entry: Int) -> String {
        let start = entries[entry].keyStart
        return String(decoding: keyBytes[start..<(start + entries[entry].keyCount)], as: UTF8.self)
    }

    /// ``Unsupported``, after setting ``failed``: whoever catches the error and goes on encoding
    /// cannot make this value's text differ from `JSONEncoder`'s.
    func unsupported() -> Unsupported {
        failed = true
        return Unsupported()
    }

    /// Throws ``Unsupported`` unless `slot`'s value is still unset (a single value encoded twice).
    @inline(__always)
    func requireUnset(_ slot: Int) throws {
        guard entries[slot].valueEnd == Entry.unset else { throw unsupported() }
    }

    /// Makes the text appended since `start` the value of `slot`.
    @inline(__always)
    func setText(_ slot: Int, from start: Int) {
        entries[slot].valueStart = start
        entries[slot].valueEnd = text.count
    }

    /// The keys from the value down to `slot` (array elements as `Index n`).
    func codingPath(to slot: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var entry = slot
        while entry > 0 {
            let current = entries[entry]
            guard current.parent >= 0 else { break }
            path.append(current.keyStart >= 0 ? RecordCodingKey(stringValue: key(of: entry)) : RecordCodingKey(index: current.keyCount))
            entry = containers[current.parent].owner
        }
        return path.reversed()
    }
}
