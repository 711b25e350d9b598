// RecordCanonicalOrder, with RecordCanonicallyOrdered: the marker protocol of the containers it
// orders.

/// Marks collections whose iteration order differs between processes (Swift seeds hashing per
/// process). Their containers are re-ordered canonically when encoded so that equal values
/// always produce identical bytes.
protocol RecordCanonicallyOrdered {
    /// For an unkeyed encoding: how many consecutive elements form one sortable unit
    /// (2 for a dictionary's key/value pairs, 1 for a set's elements). Keyed encodings are
    /// always sorted by key.
    static var recordUnkeyedGroupSize: Int { get }
}

extension Dictionary: RecordCanonicallyOrdered {
    static var recordUnkeyedGroupSize: Int { 2 }
}

extension Set: RecordCanonicallyOrdered {
    static var recordUnkeyedGroupSize: Int { 1 }
}

enum RecordCanonicalOrder {
    /// Sorts the entries of a keyed container body by key bytes (then by value bytes).
    static func sortKeyedBody(_ body: [UInt8]) throws -> [UInt8] {
        try body.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return body }
            let reader = RecordReader(base: base, count: buffer.count)
            var entries: [(key: Range<Int>, entry: Range<Int>)] = []
            var position = 0
            while position < buffer.count {
                let (key, value) = try check { () throws(RecordProblem) in try reader.entryKey(at: position, limit: buffer.count) }
                let next = try check { () throws(RecordProblem) in try reader.valueEnd(at: value, limit: buffer.count) }
                entries.append((key, position..<next))
                position = next
            }
            entries.sort { lhs, rhs in
                let order = compare(buffer, lhs.key, rhs.key)
                return order != 0 ? order < 0 : compare(buffer, lhs.entry, rhs.entry) < 0
            }
            var sorted: [UInt8] = []
            sorted.reserveCapacity(buffer.count)
            for item in entries {
                sorted.append(contentsOf: buffer[item.entry])
            }
            return sorted
        }
    }

    /// Sorts the elements of an unkeyed container body (without its count) in groups of
    /// `groupSize`, ordered by the bytes of the group's first element (then the whole group).
    static func sortUnkeyedBody(_ body: [UInt8], groupSize: Int) throws -> [UInt8] {
        try body.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return body }
            let reader = RecordReader(base: base, count: buffer.count)
            var groups: [(first: Range<Int>, whole: Range<Int>)] = []
            var position = 0
            while position < buffer.count {
                let groupStart = position
                var firstEnd = position
                for index in 0..<groupSize where position < buffer.count {
                    position = try check { () throws(RecordProblem) in try reader.valueEnd(at: position, limit: buffer.count) }
                    if index == 0 {
                        firstEnd = position
                    }
                }
                groups.append((groupStart..<firstEnd, groupStart..<position))
            }
            groups.sort { lhs, rhs in
                let order = compare(buffer, lhs.first, rhs.first)
                return order != 0 ? order < 0 : compare(buffer, lhs.whole, rhs.whole) < 0
            }
            var sorted: [UInt8] = []
            sorted.reserveCapacity(buffer.count)
            for group in groups {
                sorted.append(contentsOf: buffer[group.whole])
            }
            return sorted
        }
    }

    private static func compare(_ buffer: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        EncodedKey.compare(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[lhs])), UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[rhs])))
    }

    private static func check<R>(_ body: () throws(RecordProblem) -> R) throws -> R {
        do {
            return try body()
        } catch {
            throw EncodingError.invalidValue(error.message, EncodingError.Context(
                codingPath: [], debugDescription: "Internal error while sorting a dictionary or set canonically: \(error.message)"
            ))
        }
    }
}
