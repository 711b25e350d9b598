import Foundation

// Finding an object's members by key, for JSONTapeDecoder's keyed container.
extension JSONTape {
    /// The tape index of the value under the key `name` (UTF-8) in the object at `object`, or
    /// nil. In a tape whose keys are known distinct (`rejectingAmbiguousKeys`), `near`, a key
    /// index of the same object, and the key after it are tried first (the last key found:
    /// decoders ask for a key, its twin and its neighbour in turn); otherwise the first key of the
    /// name counts, as always.
    /// An unescaped key compares by its bytes; an escaped one, unescaped, as a `String`.
    func member(of object: Int, named name: UnsafeBufferPointer<UInt8>, near: Int) -> Int? {
        entries.withUnsafeBufferPointer { entries in
            let end = Int(entries[object].next)
            func matches(_ member: Int) -> Bool {
                let entry = entries[member]
                guard !entry.escaped else { return (try? string(member)) == String(decoding: name, as: UTF8.self) }
                return Int(entry.end - entry.start) == name.count
                    && (name.isEmpty || memcmp(bytes.baseAddress! + Int(entry.start), name.baseAddress!, name.count) == 0)
            }
            if rejectsAmbiguousKeys, near > object, near < end {
                if matches(near) { return near + 1 }
                let following = Int(entries[near + 1].next)
                if following < end, matches(following) { return following + 1 }
            }
            var member = object + 1
            while member < end {
                if matches(member) { return member + 1 }
                member = Int(entries[member + 1].next)
            }
            return nil
        }
    }
}
