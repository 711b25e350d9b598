import Foundation

/// The order in which `JSONEncoder` (with `.sortedKeys`) writes an object's members, worked out
/// once per sequence of keys and kept: the records of one collection encode a handful of key
/// sequences, so sorting is done a few times per export instead of once per object.
///
/// Foundation keeps an object's members in a `Dictionary`: keys that are equal as `String`s
/// (canonically equivalent, such as `é` and `e` + U+0301) are one member, written with the key
/// as first encoded and the value encoded last; members are sorted by their keys' UTF-8 bytes.
/// A sequence is matched by its keys' bytes, never merely as equal `String`s (which may sort
/// differently).
///
/// ```swift
/// var orders = JSONKeyOrders()
/// let order = orders.order(of: members, entries: entries, keyBytes: keyBytes, hash: hash)
/// ```
struct JSONKeyOrders {
    /// How one sequence of keys is written (a class: handing it out per object costs one
    /// reference, not five arrays).
    final class Order {
        let hash: UInt64
        /// The keys in encoding order: UTF-8, concatenated, and where each ends.
        let keyBytes: [UInt8]
        let keyEnds: [Int]
        /// Per member written, the position (in encoding order) of the value to write.
        let values: [Int]
        /// Per member written, its text before the value: `{"key":` for the first, `,"key":`
        /// for the others; where each ends in `memberText`.
        let memberText: [UInt8]
        let memberEnds: [Int]

        init(hash: UInt64, keyBytes: [UInt8], keyEnds: [Int], values: [Int], memberText: [UInt8], memberEnds: [Int]) {
            self.hash = hash
            self.keyBytes = keyBytes
            self.keyEnds = keyEnds
            self.values = values
            self.memberText = memberText
            self.memberEnds = memberEnds
        }
    }

    /// At most this many orders are kept (objects with ever-new keys, such as dictionaries, would
    /// otherwise grow the cache without end); beyond it they replace the oldest.
    static let capacity = 64

    private var orders: [Order] = []
    private var replaced = 0
    private var lastUsed = 0

    /// The order of an object whose members are `members` (entries, in encoding order, whose
    /// keys are ranges of `keyBytes`) and whose keys hash to `hash` (see
    /// `JSONScratch.Container.keyHash`).
    mutating func order(of members: UnsafeBufferPointer<Int>, entries: UnsafeBufferPointer<JSONScratch.Entry>,
                        keyBytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Order {
        if lastUsed < orders.count, Self.matches(orders[lastUsed], members: members, entries: entries, keyBytes: keyBytes, hash: hash) {
            return orders[lastUsed]
        }
        for index in orders.indices where Self.matches(orders[index], members: members, entries: entries, keyBytes: keyBytes, hash: hash) {
            lastUsed = index
            return orders[index]
        }
        let keys = members.map { entries[$0].keyStart..<(entries[$0].keyStart + entries[$0].keyCount) }
        let order = keys.withUnsafeBufferPointer { Self.make(keys: $0, in: keyBytes, hash: hash) }
        if orders.count < Self.capacity {
            orders.append(order)
            lastUsed = orders.count - 1
        } else {
            orders[replaced] = order
            lastUsed = replaced
            replaced = (replaced + 1) % Self.capacity
        }
        return order
    }

    private static func matches(_ order: Order, members: UnsafeBufferPointer<Int>, entries: UnsafeBufferPointer<JSONScratch.Entry>,
                                keyBytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
        guard order.hash == hash, order.keyEnds.count == members.count else { return false }
        return order.keyBytes.withUnsafeBufferPointer { cached in
            var start = 0
            for (position, member) in members.enumerated() {
                let end = order.keyEnds[position]
                let key = entries[member]
                guard end - start == key.keyCount else { return false }
                if key.keyCount > 0, memcmp(cached.baseAddress! + start, keyBytes.baseAddress! + key.keyStart, key.keyCount) != 0 {
                    return false
                }
                start = end
            }
            return true
        }
    }

    private static func make(keys: UnsafeBufferPointer<Range<Int>>, in keyBytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Order {
        let strings = keys.map { String(decoding: UnsafeBufferPointer(rebasing: keyBytes[$0]), as: UTF8.self) }
        var kept: [(key: Int, value: Int)] = []
        kept.reserveCapacity(strings.count)
        for index in strings.indices {
            if let earlier = kept.firstIndex(where: { strings[$0.key] == strings[index] }) {
                kept[earlier].value = index
            } else {
                kept.append((index, index))
            }
        }
        kept.sort { strings[$0.key].utf8.lexicographicallyPrecedes(strings[$1.key].utf8) }
        var concatenated: [UInt8] = []
        var keyEnds: [Int] = []
        for key in keys {
            concatenated.append(contentsOf: UnsafeBufferPointer(rebasing: keyBytes[key]))
            keyEnds.append(concatenated.count)
        }
        var memberText: [UInt8] = []
        var memberEnds: [Int] = []
        for (position, member) in kept.enumerated() {
            memberText.append(position == 0 ? 0x7B : 0x2C) // { or ,
            JSONValueText.writeString(utf8: UnsafeBufferPointer(rebasing: keyBytes[keys[member.key]]), into: &memberText)
            memberText.append(0x3A) // :
            memberEnds.append(memberText.count)
        }
        return Order(hash: hash, keyBytes: concatenated, keyEnds: keyEnds, values: kept.map(\.value),
                     memberText: memberText, memberEnds: memberEnds)
    }
}
