import Foundation

extension JSONScratch {
    /// Appends the value of `entry` as JSON text: scalars as encoded, arrays in order, objects'
    /// members in `JSONEncoder`'s order (``JSONKeyOrders``).
    ///
    /// The text is first written through a pointer into ``output`` (sized beforehand for the
    /// worst case: every key byte escaped as `\u00xx`), then appended to `out` at once.
    ///
    /// ```swift
    /// scratch.write(0, into: &out)   // the whole value
    /// ```
    func write(_ entry: Int, into out: inout [UInt8]) {
        let bound = text.count + 6 * keyBytes.count + 5 * entries.count + 2 * containers.count + 2
        reserveOutput(bound)
        let written = text.withUnsafeBufferPointer { text in
            entries.withUnsafeBufferPointer { entries in
                containers.withUnsafeBufferPointer { containers in
                    keyBytes.withUnsafeBufferPointer { keyBytes in
                        var pass = WritePass(text: text, entries: entries, containers: containers, keyBytes: keyBytes,
                                             cursor: output)
                        pass.write(entry, members: &members, orders: &keyOrders)
                        return pass.cursor - output
                    }
                }
            }
        }
        precondition(written <= bound, "JSON text of \(written) bytes overran its bound of \(bound)")
        out.append(contentsOf: UnsafeBufferPointer(start: output, count: written))
    }

    /// One walk over the entries, writing through a cursor that never passes the reserved end.
    private struct WritePass {
        let text: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<Entry>
        let containers: UnsafeBufferPointer<Container>
        let keyBytes: UnsafeBufferPointer<UInt8>
        var cursor: UnsafeMutablePointer<UInt8>

        private mutating func put(_ byte: UInt8) {
            cursor.pointee = byte
            cursor += 1
        }

        private mutating func put(_ bytes: UnsafePointer<UInt8>, count: Int) {
            cursor.update(from: bytes, count: count)
            cursor += count
        }

        /// `members` is a stack of the members of the objects being written, innermost last.
        mutating func write(_ entry: Int, members: inout [Int], orders: inout JSONKeyOrders) {
            let value = entries[entry]
            assert(value.valueEnd != Entry.unset, "entry \(entry) has no value; the encoder should have thrown")
            if value.valueEnd >= 0 {
                put(text.baseAddress! + value.valueStart, count: value.valueEnd - value.valueStart)
                return
            }
            guard value.valueEnd == Entry.container else { return }
            let container = containers[value.valueStart]
            if !container.isObject {
                put(0x5B) // [
                var element = container.first
                while element >= 0 {
                    if element != container.first { put(0x2C) } // ,
                    write(element, members: &members, orders: &orders)
                    element = entries[element].next
                }
                put(0x5D) // ]
                return
            }
            let base = members.count
            var member = container.first
            while member >= 0 {
                members.append(member)
                member = entries[member].next
            }
            let order = members.withUnsafeBufferPointer { members in
                orders.order(of: UnsafeBufferPointer(rebasing: members[base...]), entries: entries, keyBytes: keyBytes,
                             hash: container.keyHash)
            }
            if order.values.isEmpty {
                put(0x7B) // {
            } else {
                order.memberText.withUnsafeBufferPointer { memberText in
                    var start = 0
                    for position in order.values.indices {
                        let end = order.memberEnds[position]
                        put(memberText.baseAddress! + start, count: end - start)
                        start = end
                        write(members[base + order.values[position]], members: &members, orders: &orders)
                    }
                }
            }
            put(0x7D) // }
            members.removeSubrange(base...)
        }
    }

    private func reserveOutput(_ count: Int) {
        guard count > outputCapacity else { return }
        output.deallocate()
        outputCapacity = max(count, 2 * outputCapacity)
        output = .allocate(capacity: outputCapacity)
    }
}
